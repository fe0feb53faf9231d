// A small piece of state kept in data_dir as JSON and read back through its schema: whatever fails
// the schema (an older shape, a hand edit, a truncated file) is reported and read as nothing kept.
import { readJson, writeJson } from './files.js';
import type { z } from 'zod';

export class KeptJson<S extends z.ZodType> {
  constructor(
    private readonly path: string,
    private readonly schema: S,
  ) {}

  /** The kept value, or undefined when there is none or it does not fit the schema (onBroken says so). */
  async load(onBroken?: (why: string) => void): Promise<z.output<S> | undefined> {
    let raw: unknown;
    try {
      raw = await readJson(this.path, (error) => onBroken?.(error.message));
    } catch (error) {
      onBroken?.(error instanceof Error ? error.message : String(error));
      return undefined;
    }
    if (raw === undefined) return undefined;
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      onBroken?.(parsed.error.issues[0]?.message ?? 'unexpected shape');
      return undefined;
    }
    return parsed.data;
  }

  save(value: z.input<S>): Promise<void> {
    return writeJson(this.path, value);
  }
}
