// A data folder written by a development version, before the first release (0.1.0), is refused at start, never
// upgraded: no release wrote its files, so no code reads their form. Each such form is told apart by what this
// version never writes (a key, an entry without a field); the bridge stops before it takes the folder, naming the
// folder and each file, and leaves everything as it was. A file merely broken (cut short by a power cut, not JSON,
// of no form at all) is no such form: the part that reads it moves it aside and starts that part afresh (util/stored.ts).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsedJson } from '../util/text.js';

/** A file of data_dir in a development version's form, and what tells it so. */
interface UnreleasedFile {
  /** Its path in data_dir, e.g. `seen/ania.json`. */
  file: string;
  what: string;
}

/** data_dir holds files no release wrote: the bridge does not start on it. */
export class UnreleasedDataError extends Error {
  override readonly name = 'UnreleasedDataError';

  constructor(
    readonly dataDir: string,
    readonly found: readonly UnreleasedFile[],
  ) {
    super(
      `data_dir ${dataDir} was written by a development version of dziennik2mqtt, before its first release, in a form this ` +
        `version does not read: ${found.map(({ file, what }) => `${file} (${what})`).join(', ')}. Nothing in it was changed. ` +
        'To start afresh, move the folder away (or rename it) and start the bridge again: it makes a new one and logs in again.',
    );
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Where a development version's form may be, and what tells it: the MQTT session that kept the events on their way
 * and the client id (since then in seen/ and installation.json); an event memory of ids alone, one without its outbox,
 * an event in it without an id, or behaviour entries in its grades (a grade_removed each, read now); a send noted
 * without its kind or its topic.
 */
const FORMS: readonly { folder: string; name: RegExp; what: (json: Json) => string | undefined }[] = [
  {
    folder: '',
    name: /^mqtt-session\.json$/,
    what: (session) =>
      ['packets', 'handed', 'client_id'].some((key) => key in session) ? 'the MQTT session holds events on their way or the client id' : undefined,
  },
  {
    folder: 'seen',
    name: /\.json$/,
    what: (seen) => {
      if (!('ids' in seen))
        return Object.keys(seen).length > 0 && Object.values(seen).every(Array.isArray) ? 'an event memory of ids alone' : undefined;
      if (!('outbox' in seen)) return 'an event memory without its outbox';
      const outbox = Array.isArray(seen.outbox) ? seen.outbox : [];
      if (outbox.some((entry) => isObject(entry) && !('id' in entry))) return 'an event waiting without an id';
      const grades = isObject(seen.records) && isObject(seen.records.grade) ? Object.keys(seen.records.grade) : [];
      return grades.some((key) => key.startsWith('behaviour:')) ? 'behaviour entries remembered as grades' : undefined;
    },
  },
  {
    folder: 'messages',
    name: /-sent\.json$/,
    what: (journal) => {
      const entries = Array.isArray(journal.entries) ? journal.entries : [];
      return entries.some((entry) => isObject(entry) && !('kind' in entry && 'topic' in entry))
        ? 'a send noted without its kind or topic'
        : undefined;
    },
  },
];

/** Throws UnreleasedDataError when data_dir holds a file in a development version's form; reads, never writes. */
export async function refuseUnreleasedData(dataDir: string): Promise<void> {
  const found: UnreleasedFile[] = [];
  for (const form of FORMS) {
    const names = await readdir(join(dataDir, form.folder)).catch(() => []);
    for (const name of names.filter((n) => form.name.test(n)).sort()) {
      const file = form.folder === '' ? name : `${form.folder}/${name}`;
      const json = parsedJson(await readFile(join(dataDir, file), 'utf8').catch(() => ''));
      const what = isObject(json) ? form.what(json) : undefined;
      if (what !== undefined) found.push({ file, what });
    }
  }
  if (found.length > 0) throw new UnreleasedDataError(dataDir, found);
}
