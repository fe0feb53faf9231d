// A small memory one login keeps across restarts: records by name, in one file per login under a folder of
// data_dir (`<folder>/<login>.json`, `{"version":1,"<field>":{...}}`). What the records are is the using
// store's (kept-states.ts, refused-modules.ts); reading, writing and what a broken file costs are said here.
import { join } from 'node:path';
import { z } from 'zod';
import { SteadyFile, safeName } from './files.js';
import { readStored } from './stored.js';

/** Where a kind of memory lives and what one of its records is. */
export interface LoginRecordsForm<V> {
  /** The folder of data_dir holding one file per login. */
  folder: string;
  /** The file's field holding the records, beside `version`. */
  field: string;
  /** One record, checked as it is read back. */
  record: z.ZodType<V>;
}

export class LoginRecords<V> {
  private readonly path: string;
  private readonly file: SteadyFile;
  private readonly schema: z.ZodType<Record<string, Record<string, V>>>;

  constructor(
    dataDir: string,
    login: string,
    private readonly form: LoginRecordsForm<V>,
  ) {
    this.path = join(dataDir, form.folder, `${safeName(login)}.json`);
    this.file = new SteadyFile(this.path, { durable: false });
    this.schema = z.object({ version: z.literal(1), [form.field]: z.record(z.string(), form.record) }) as z.ZodType<
      Record<string, Record<string, V>>
    >;
  }

  /** What the last run kept; empty on a first run (a broken file is moved aside). */
  async load(onBroken?: (error: Error) => void): Promise<Record<string, V>> {
    return (await readStored(this.path, this.schema, { onBroken }))?.[this.form.field] ?? {};
  }

  /**
   * Written when the records changed (the using code saves one change after another); atomic, not synced: a
   * power cut costs at most the last change, which the next pass brings back.
   */
  save(records: Record<string, V>): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, [this.form.field]: records })}\n`);
  }
}
