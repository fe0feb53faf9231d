// A small piece of state kept in data_dir as JSON and read back through its schema (readStored): a
// file that fails it (an older shape, a hand edit, a truncated file) is moved aside, reported once,
// and read as nothing kept.
import { writeJson } from './files.js';
import { readStored } from './stored.js';
import type { z } from 'zod';

export class KeptJson<S extends z.ZodType> {
  constructor(
    private readonly path: string,
    private readonly schema: S,
  ) {}

  /** The kept value, or undefined when there is none or it does not fit the schema (onBroken says so). */
  load(onBroken?: (why: string) => void): Promise<z.output<S> | undefined> {
    return readStored(this.path, this.schema, { onBroken: (error) => onBroken?.(error.message) });
  }

  save(value: z.input<S>): Promise<void> {
    return writeJson(this.path, value);
  }
}
