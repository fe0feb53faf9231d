// Reading what the bridge kept in data_dir: every file goes through a schema. One that is cut short,
// is not JSON or does not fit (a crash, a disk error, a hand edit) is moved aside as <name>.broken-<time>
// for a person to look at, and its part starts as on a first run; the bridge starts. Moving it aside also
// means it is reported once, not at every start. (A file in a form only a development version wrote never
// gets here: the bridge refuses such a folder at start, app/unreleased-data.ts.)
import { readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { safeName, SteadyFile, syncFolder } from './files.js';
import type { z } from 'zod';
import { parsedJson } from './text.js';
import { basicUtc } from './time.js';

/** A stored file that could not be used: where it went and why. */
export class BrokenFileError extends Error {
  override readonly name = 'BrokenFileError';
  readonly path: string;
  /** Where it was moved; undefined when even that failed (it is then left where it is). */
  readonly movedTo: string | undefined;

  constructor(path: string, reason: string, movedTo: string | undefined) {
    super(`${basename(path)} ${reason}; ${movedTo === undefined ? 'could not move it aside' : `moved aside as ${basename(movedTo)}`}`);
    this.path = path;
    this.movedTo = movedTo;
  }
}

export interface StoredReadOptions {
  /** Told once about a broken file (the caller logs it in its own words). */
  onBroken?: (error: BrokenFileError) => void;
  /** The time for the broken file's name (default: now). */
  now?: number;
}

/** A JSON file through its schema: undefined when it is missing or broken (then moved aside). */
export async function readStored<S extends z.ZodType>(path: string, schema: S, options: StoredReadOptions = {}): Promise<z.output<S> | undefined> {
  return readChecked(path, options, (text) => {
    const json = parsedJson(text);
    if (json === undefined) return { reason: text.trim() === '' ? 'is empty' : 'is not JSON (cut short?)' };
    const parsed = schema.safeParse(json);
    return parsed.success ? { value: parsed.data as z.output<S> } : { reason: `is not as expected (${firstIssue(parsed.error)})` };
  });
}

/** A text file (its content trimmed) through a schema, as readStored. */
export async function readStoredText<S extends z.ZodType<unknown, string>>(path: string, schema: S, options: StoredReadOptions = {}) {
  return readChecked(path, options, (text) => {
    const parsed = schema.safeParse(text.trim());
    return parsed.success ? { value: parsed.data as z.output<S> } : { reason: 'is not as expected' };
  });
}

/** A JSON file through its schema as another process may be writing it: undefined when it is missing or does not fit, left where it is. */
export async function peekStored<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S> | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (schema.safeParse(parsedJson(text)).data as z.output<S> | undefined);
}

/**
 * One login's JSON file in a folder of data_dir (`<folder>/<login>.json`, the login made file-name-safe):
 * read back through its schema, and rewritten only when its text changed (SteadyFile).
 */
export class LoginFile<S extends z.ZodType> extends SteadyFile {
  constructor(
    dataDir: string,
    folder: string,
    login: string,
    private readonly schema: S,
    options: { durable?: boolean } = {},
  ) {
    super(join(dataDir, folder, `${safeName(login)}.json`), options);
  }

  /** What the file holds; undefined when there is none, or it was broken (moved aside and told to onBroken). */
  load(onBroken?: (error: Error) => void): Promise<z.output<S> | undefined> {
    return readStored(this.path, this.schema, { onBroken });
  }

  save(value: z.input<S>): Promise<void> {
    return this.write(`${JSON.stringify(value)}\n`);
  }
}

/** Moves a file aside as <path>.broken-<time>; resolves to the new path, or undefined when it could not. */
export async function moveAside(path: string, now = Date.now()): Promise<string | undefined> {
  const target = `${path}.broken-${basicUtc(now)}`;
  const moved = await rename(path, target).then(
    () => target,
    () => undefined,
  );
  // Durable before the new file is written in its place (see files.ts).
  if (moved !== undefined) await syncFolder(dirname(path)).catch(() => undefined);
  return moved;
}

type Checked<T> = { value: T } | { reason: string };

async function readChecked<T>(path: string, options: StoredReadOptions, check: (text: string) => Checked<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // A folder where a file should be, or a file that cannot be read: as broken as bad content.
    if (code !== 'EISDIR' && code !== 'EACCES') throw error;
    text = '';
  }
  const checked = check(text);
  if ('value' in checked) return checked.value;
  const movedTo = await moveAside(path, options.now);
  options.onBroken?.(new BrokenFileError(path, checked.reason, movedTo));
  return undefined;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'no detail';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
  return `${where}: ${issue.message}`;
}
