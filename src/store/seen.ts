// The memory of items already announced as events, per child and kind, kept in data_dir so that a
// restart or a re-login never fires the same event twice.
import { join } from 'node:path';
import { z } from 'zod';
import { safeName, writeJson } from './files.js';
import { readStored } from './stored.js';

/** More new items than this at once is a flood (a first sync, a restored backup): prime, don't fire. */
const FLOOD_LIMIT = 20;
/** Ids kept per kind; older ones are forgotten (the portal's lists are a school year long). */
const MAX_IDS = 5000;

/** A candidate for an event: `id` is what is remembered; the payload is the caller's business. */
export interface NewItem<P = unknown> {
  id: string;
  payload: P;
}

type Memory = Record<string, string[]>;

const memorySchema = z.record(z.string(), z.array(z.string()));

export class SeenStore {
  private readonly path: string;
  private memory: Memory = {};
  private dirty = false;

  constructor(dataDir: string, child: string) {
    this.path = join(dataDir, 'seen', `${safeName(child)}.json`);
  }

  /**
   * Reads the memory. A broken file is moved aside (told to onBroken) and the memory starts empty, as
   * on a first run: every kind is then primed by its first take(), so the items already there fire
   * nothing (no flood of old events).
   */
  async load(onBroken?: (error: Error) => void): Promise<void> {
    const saved = await readStored(this.path, memorySchema, { onBroken });
    // Spread, not Object.assign: a key such as __proto__ stays a plain key.
    if (saved) this.memory = { ...saved };
  }

  /**
   * Returns the items to fire for a kind and remembers them. The first time a kind is seen, or when
   * more than FLOOD_LIMIT are new at once, everything is remembered and nothing fires.
   */
  take<P>(kind: string, items: readonly NewItem<P>[]): NewItem<P>[] {
    const known = this.memory[kind];
    const knownSet = new Set(known ?? []);
    const fresh = items.filter((i) => !knownSet.has(i.id));
    if (fresh.length === 0 && known !== undefined) return [];
    const ids = [...(known ?? []), ...fresh.map((i) => i.id)];
    this.memory[kind] = ids.length > MAX_IDS ? ids.slice(ids.length - MAX_IDS) : ids;
    this.dirty = true;
    if (known === undefined || fresh.length > FLOOD_LIMIT) return [];
    return fresh;
  }

  /**
   * A way back to the memory as it is now (when saving what take() added failed). A shallow copy is
   * enough: take() replaces a kind's list, never changes one in place.
   */
  checkpoint(): () => void {
    const copy = { ...this.memory };
    const dirty = this.dirty;
    return () => {
      this.memory = copy;
      this.dirty = dirty;
    };
  }

  /** Writes the memory if it changed; resolves true when it wrote. */
  async save(): Promise<boolean> {
    if (!this.dirty) return false;
    await writeJson(this.path, this.memory);
    this.dirty = false;
    return true;
  }
}
