// How many items a list in a portal answer may hold before it is worked on (interface 19.2). An answer's bytes are
// capped as it streams in (gateway.ts ANSWER_BYTES, LIST_ANSWER_BYTES); within them, a list of many tiny records (28,000
// standing-plan entries in 2 MB) would still make every rule behind it slow: each list is cut to its resource's most,
// the first items kept, and the cut told (once a resource: engine/cache.ts). The caps are in docs/cost-and-faults.md.

/** Any list of an answer: ten times a school year of a child's records (about 1,500 attendance marks) or a school's lookup. */
export const LIST_ITEMS = 10_000;

/** How deep in an answer lists are looked for: the root, its records, and a record's own lists (a week's day of slots). */
const DEPTH = 4;

/** Told of a list cut: where it stands in the answer (`TimetableEntries`, `Timetable.2026-11-16`) and how many it held. */
export type ListCut = (at: string, listed: number) => void;

/** The most items of each list in an answer, and who is told of a list cut. */
export interface ListCap {
  max: number;
  cut: ListCut;
}

/** The answer with every list in it (to DEPTH levels) cut to `max` items, the first kept; `cut` told of each one cut. */
export function capLists(json: unknown, max: number, cut: ListCut, at = '', depth = DEPTH): unknown {
  if (depth === 0 || json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) {
    if (json.length > max) cut(at || '(root)', json.length);
    return json.slice(0, max).map((item) => capLists(item, max, cut, at, depth - 1));
  }
  const record = json as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) record[key] = capLists(value, max, cut, at ? `${at}.${key}` : key, depth - 1);
  return record;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_RECORD = 0x7b;
const CLOSE_RECORD = 0x7d;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The containers open while an answer's text is read, one row each, in typed columns so that reading 100,000 records
 * makes no object: whether it is a list, where it began, the key it stands under in its record (byte offsets of the
 * key's string; -1 for none), its items counted (a list), whether no item has begun yet (a list) or the next string is
 * a key (a record), the last key read (a record), and where its items past the cap begin (a list; -1 while none).
 */
class OpenContainers {
  depth = 0;
  list = new Uint8Array(64);
  from = new Int32Array(64);
  keyFrom = new Int32Array(64);
  keyTo = new Int32Array(64);
  items = new Int32Array(64);
  awaiting = new Uint8Array(64);
  lastKeyFrom = new Int32Array(64);
  lastKeyTo = new Int32Array(64);
  dropFrom = new Int32Array(64);

  push(list: boolean, at: number): void {
    if (this.depth === this.list.length) this.grow();
    const d = this.depth++;
    const parent = d - 1;
    const keyed = parent >= 0 && this.list[parent] === 0;
    this.list[d] = list ? 1 : 0;
    this.from[d] = at;
    this.keyFrom[d] = keyed ? this.lastKeyFrom[parent]! : -1;
    this.keyTo[d] = keyed ? this.lastKeyTo[parent]! : -1;
    this.items[d] = 0;
    this.awaiting[d] = 1;
    this.dropFrom[d] = -1;
  }

  private grow(): void {
    for (const column of ['list', 'awaiting'] as const) {
      const wider = new Uint8Array(this[column].length * 2);
      wider.set(this[column]);
      this[column] = wider;
    }
    for (const column of ['from', 'keyFrom', 'keyTo', 'items', 'lastKeyFrom', 'lastKeyTo', 'dropFrom'] as const) {
      const wider = new Int32Array(this[column].length * 2);
      wider.set(this[column]);
      this[column] = wider;
    }
  }
}

/** A list whose items past the cap are dropped: the bytes dropped, where it began, how many it held, its path of keys. */
interface Drop {
  from: number;
  to: number;
  began: number;
  listed: number;
  keys: [number, number][];
}

/**
 * The text of a JSON answer with every list in it (to DEPTH levels, where capLists looks) cut to `max` items before it
 * is parsed, so that the records past a cap are never made (28,000 standing-plan entries parsed whole cost 9 MB more at
 * their peak than their first 2,000): the first items kept, `cut` told of each list cut, in the answer's order, named as
 * capLists names it. The same bytes when no list is longer, or when they are not JSON (for the parser to refuse). Only
 * the structure is read: a string is skipped by its quotes, a key decoded only to name a list cut.
 */
export function cutListsInText(bytes: Buffer, max: number, cut: ListCut): Buffer {
  // A list of more than `max` items takes at least 2 * max + 3 bytes ("[0,0,...,0]").
  if (bytes.length < 2 * max + 3) return bytes;
  const open = new OpenContainers();
  const drops: Drop[] = [];
  /** The level of the list whose items past its cap are being passed over (nothing inside it is counted); -1 for none. */
  let dropping = -1;
  const dropFrom = (level: number, at: number): void => {
    open.dropFrom[level] = at;
    dropping = level;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (isSpace(c)) continue;
    const top = open.depth - 1;
    const inList = top >= 0 && open.list[top] === 1;
    if (inList && open.awaiting[top] === 1 && c !== CLOSE_LIST) {
      open.awaiting[top] = 0;
      open.items[top] = 1;
      // A cap of none drops the list's first item too, from where it begins.
      if (max === 0 && dropping < 0 && top < DEPTH) dropFrom(top, i);
    }
    if (c === QUOTE) {
      let j = i + 1;
      while (j < bytes.length && bytes[j] !== QUOTE) j += bytes[j] === BACKSLASH ? 2 : 1;
      if (j >= bytes.length) return bytes;
      if (top >= 0 && !inList && open.awaiting[top] === 1) {
        open.awaiting[top] = 0;
        open.lastKeyFrom[top] = i;
        open.lastKeyTo[top] = j + 1;
      }
      i = j;
    } else if (c === OPEN_LIST || c === OPEN_RECORD) {
      open.push(c === OPEN_LIST, i);
    } else if (c === CLOSE_LIST || c === CLOSE_RECORD) {
      if (top < 0 || inList !== (c === CLOSE_LIST)) return bytes;
      if (dropping === top) {
        const keys: [number, number][] = [];
        for (let level = 0; level <= top; level++) if (open.keyFrom[level]! >= 0) keys.push([open.keyFrom[level]!, open.keyTo[level]!]);
        drops.push({ from: open.dropFrom[top]!, to: i, began: open.from[top]!, listed: open.items[top]!, keys });
        dropping = -1;
      }
      open.depth--;
    } else if (c === COMMA && top >= 0) {
      if (!inList) open.awaiting[top] = 1;
      else {
        if (dropping < 0 && top < DEPTH && open.items[top] === max) dropFrom(top, i);
        if (dropping < 0 || dropping === top) open.items[top]!++;
      }
    }
  }
  if (open.depth > 0 || drops.length === 0) return bytes;
  const decoder = new TextDecoder();
  const keyOf = ([from, to]: [number, number]): string => String(JSON.parse(decoder.decode(bytes.subarray(from, to))));
  const pathOf = (keys: [number, number][]): string => keys.reduce((at, key) => (at ? `${at}.${keyOf(key)}` : keyOf(key)), '');
  for (const d of [...drops].sort((a, b) => a.began - b.began)) cut(pathOf(d.keys) || '(root)', d.listed);
  const kept: Buffer[] = [];
  let from = 0;
  for (const d of drops) {
    kept.push(bytes.subarray(from, d.from));
    from = d.to;
  }
  kept.push(bytes.subarray(from));
  return Buffer.concat(kept);
}
