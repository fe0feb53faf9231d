// A small memory one login keeps across restarts: records by name, in one file per login under a folder of
// data_dir (`<folder>/<login>.json`, `{"version":1,"<field>":{...}}`), and the two kinds kept so: the modules
// the portal refuses a child, and the states kept for later. Reading, writing and what a broken file costs
// are said here.
import * as z from 'zod';
import { LoginFile } from '../util/stored.js';

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
  private readonly file: LoginFile<z.ZodType<Record<string, Record<string, V>>>>;

  constructor(
    dataDir: string,
    login: string,
    private readonly form: LoginRecordsForm<V>,
  ) {
    const schema = z.object({ version: z.literal(1), [form.field]: z.record(z.string(), form.record) });
    this.file = new LoginFile(dataDir, form.folder, login, schema as z.ZodType<Record<string, Record<string, V>>>, { durable: false });
  }

  /** What the last run kept; empty on a first run (a broken file is moved aside). */
  async load(onBroken?: (error: Error) => void): Promise<Record<string, V>> {
    return (await this.file.load(onBroken))?.[this.form.field] ?? {};
  }

  /**
   * Written when the records changed (the using code saves one change after another); atomic, not synced: a
   * power cut costs at most the last change, which the next pass brings back.
   */
  save(records: Record<string, V>): Promise<void> {
    return this.file.save({ version: 1, [this.form.field]: records });
  }
}

/**
 * The modules the portal refuses a child (features/kit/modules.ts): by resource name, since when its answers
 * have been refusals and when the latest came (epoch ms). In data_dir/refusals/, so that a module gone from
 * the child's device stays gone through a restart.
 */
export type Refusals = Record<string, { since: number; at: number }>;

export class RefusedModulesStore extends LoginRecords<Refusals[string]> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: 'refusals', field: 'refused', record: z.object({ since: z.number(), at: z.number() }) });
  }
}

/**
 * The lists that have answered the child once (features/kit/modules.ts), by resource name. In data_dir/answered/,
 * so that a restart declares a kindergarten child's device as the last run did, before its first pass reads them.
 */
export type AnsweredLists = Record<string, true>;

export class AnsweredListsStore extends LoginRecords<true> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: 'answered', field: 'answered', record: z.literal(true) });
  }
}

/**
 * The last states of the features a start does not read in its first pass (their rows are kept for later:
 * the school's files, the sent box, the library), so that every entity discovery declares has a state after
 * the first pass: what the last run published, not an unknown until the second pass. In data_dir/states/,
 * written when those states change. By feature, by entity key: a state as published (feature-kit's EntityState).
 */
export type KeptStates = Record<string, Record<string, { state: string | null; attributes?: Record<string, unknown> }>>;

const entityState = z.object({ state: z.string().nullable(), attributes: z.record(z.string(), z.unknown()).optional() });

export class KeptStatesStore extends LoginRecords<KeptStates[string]> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: 'states', field: 'features', record: z.record(z.string(), entityState) });
  }
}

/**
 * What the same features (those a start's first pass leaves for later) last kept for Assist, by feature, with the
 * version that wrote it, so that Assist knows the sent box and the school's files from a start's first pass on. In
 * data_dir/asked/; facts another version wrote are not read (their shape may differ).
 */
export type KeptAsked = Record<string, { version: string; facts: unknown }>;

export class KeptAskedStore extends LoginRecords<KeptAsked[string]> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: 'asked', field: 'features', record: z.object({ version: z.string(), facts: z.unknown() }) });
  }
}
