// What the bridge made in Home Assistant, kept in data_dir/homeassistant.json: each entry (so that one the
// family deleted stays deleted, and one made with an old address is made again), each homework item it
// added (so that a ticked or deleted one is never added again), and the API's last fault (for
// `dziennik2mqtt diagnostics`, which runs beside the bridge). What the bridge made and what the family
// deleted go with the base topic too, not with this data folder alone: told on retained (mqtt/told.ts),
// they are what a bridge that takes the base topic over starts from, so that every entry stays the
// bridge's and none the family deleted is made again.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { peekStored, readStored } from '../../util/stored.js';
import { SteadyFile } from '../../util/files.js';
import { isoWarsaw } from '../../util/time.js';
import type { HaFault } from '../../i18n/homeassistant-text.js';

export const MADE_FILE = 'homeassistant.json';

/** Set once the family deleted it: never touched again. */
const gone = z.literal(true).optional();

/**
 * What the bridge remembers of an entry: the entry's id (null when Home Assistant would not say: a
 * calendar of the calendar feed's address the family had made under another name), who made it, the address it
 * was made with, its entity (found by its name), what a calendar's calendar feed held when Home Assistant last
 * read it, and `gone` once the family deleted it.
 */
const knownSchema = z.object({
  entry: z.string().nullable(),
  title: z.string(),
  by: z.enum(['bridge', 'family']),
  url: z.string().optional(),
  entity: z.string().optional(),
  /** A calendar's: the hash of its calendar feed's content when Home Assistant last read it (made, or asked to read again). */
  read: z.string().optional(),
  gone,
});
export type Known = z.output<typeof knownSchema>;

/**
 * What the bridge remembers of an item it added, by the homework's uid: the item's uid in Home Assistant
 * (null until a listing showed it: adding does not answer it), what it wrote (the summary, the whole text,
 * the due date YYYY-MM-DD), and `gone` once the family deleted the item (or the school removed a homework
 * the family had ticked).
 */
const keptItemSchema = z.object({ item: z.string().nullable(), summary: z.string(), description: z.string().nullable(), due: z.string(), gone });
export type KeptItem = z.output<typeof keptItemSchema>;

const madeSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), knownSchema),
  /** By child id, then by the homework's uid. */
  homework: z.record(z.string(), z.record(z.string(), keptItemSchema)),
  problem: z.object({ fault: z.string(), since: z.number(), message: z.string() }).optional(),
  /** By entry key, a flow started whose step had no answer yet: aborted at the next look if its answer was lost. */
  flows: z.record(z.string(), z.string()).optional(),
});

/** What the file holds, its problem's fault one the keeper names. */
export type Made = Omit<z.output<typeof madeSchema>, 'version' | 'problem'> & { problem?: { fault: HaFault; since: number; message: string } };

/**
 * An address as the bridge keeps it: its `key` (the web token of the MCP entry, a calendar feed's own key) replaced
 * by a digest, so that no file holds a key (interface 18.4) and an address made with another key still compares unequal.
 */
export function keptAddress(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  const key = parsed.searchParams.get('key');
  if (key === null || key.startsWith(DIGEST)) return url;
  parsed.searchParams.set('key', `${DIGEST}${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  return parsed.toString();
}

/** What a kept address's key digest begins with. */
const DIGEST = 'sha256:';

export class MadeFile {
  private readonly file: SteadyFile;

  constructor(dataDir: string) {
    this.file = new SteadyFile(join(dataDir, MADE_FILE), { durable: true });
  }

  /** What the file holds; an address an earlier version kept with its key comes back with the key's digest (written so at the next save). */
  async load(onBroken?: (error: Error) => void): Promise<Made> {
    const made = ((await readStored(this.file.path, madeSchema, { onBroken })) as Made | undefined) ?? { entries: {}, homework: {} };
    const entries = Object.entries(made.entries).map(([key, known]): [string, Known] => [
      key,
      known.url === undefined ? known : { ...known, url: keptAddress(known.url) },
    ]);
    return { ...made, entries: Object.fromEntries(entries) };
  }

  save(made: Made): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, ...made })}\n`);
  }
}

/**
 * What the bridge made and what the family deleted, as told on the broker for a successor: each entry the
 * bridge made by its key (its id, its title; `gone` once the family deleted it), each homework item the
 * family deleted by its child and uid (its due date). No address and no key: a calendar's address opens its calendar feed.
 */
const toldSchema = z.object({
  entries: z.record(z.string(), z.object({ entry: z.string().nullable(), title: z.string(), gone })),
  homework: z.record(z.string(), z.record(z.string(), z.string())),
});
export type ToldEntries = z.output<typeof toldSchema>;

/** The base topic's side of what was made and deleted (mqtt/told.ts): told on by its holder, read by its successor. */
export interface HomeAssistantHandover {
  /** After a handover from another installation: what it told (undefined when nothing); undefined when this bridge held the base topic last. */
  homeAssistantTold(): { told: unknown } | undefined;
  /** What was made and deleted now, told on for a successor; undefined when nothing. */
  tellHomeAssistant(told: ToldEntries | undefined): void;
}

/** What is told on of the bridge's entries (the family's own are theirs to keep) and of the items deleted; undefined when nothing. */
export function toldOn(made: Made): ToldEntries | undefined {
  const entries = Object.fromEntries(
    Object.entries(made.entries).flatMap(([key, { entry, title, by, gone }]) =>
      by === 'bridge' || gone ? [[key, { entry, title, ...(gone ? { gone } : {}) }]] : [],
    ),
  );
  const homework = Object.fromEntries(
    Object.entries(made.homework).flatMap(([child, items]) => {
      const deleted = Object.entries(items).flatMap(([uid, item]) => (item.gone ? [[uid, item.due]] : []));
      return deleted.length === 0 ? [] : [[child, Object.fromEntries(deleted)]];
    }),
  );
  return Object.keys(entries).length === 0 && Object.keys(homework).length === 0 ? undefined : { entries, homework };
}

/**
 * What a bridge made, once it took the base topic over from another installation (`told`: what that one
 * told on, undefined when nothing; one of another shape is `unreadable` and counts as nothing). What this
 * folder remembers having made is older than what that one did since (an entry made again at its address),
 * so it goes: the predecessor's entries stand in for it, each the bridge's, its address not known (a
 * calendar is made again at this bridge's; one no longer listed was deleted by the family); with nothing
 * told, each is found again by its name. What the family deleted stays deleted, as either remembers it.
 */
export function takenOver(made: Made, told: unknown, unreadable: () => void): Made {
  const parsed = told === undefined ? undefined : toldSchema.safeParse(told);
  if (parsed?.success === false) unreadable();
  const { entries: theirs, homework: deleted } = parsed?.data ?? { entries: {}, homework: {} };
  const entries: Record<string, Known> = {};
  for (const [key, { entry, title, gone }] of Object.entries(theirs)) entries[key] = { entry, title, by: 'bridge', ...(gone ? { gone } : {}) };
  for (const [key, known] of Object.entries(made.entries))
    if (known.gone) entries[key] = { ...known, ...(entries[key] && { entry: entries[key].entry }) };
  const homework = { ...made.homework };
  for (const [child, items] of Object.entries(deleted)) {
    const kept = { ...homework[child] };
    for (const [uid, due] of Object.entries(items)) kept[uid] = { ...(kept[uid] ?? { item: null, summary: '', description: null, due }), gone: true };
    homework[child] = kept;
  }
  return { ...made, entries, homework };
}

/** What a running (or the last) bridge kept, read without moving anything (`check`, `diagnostics`). */
export async function peekMade(dataDir: string): Promise<Made> {
  return ((await peekStored(join(dataDir, MADE_FILE), madeSchema)) as Made | undefined) ?? { entries: {}, homework: {} };
}

/** The diagnostics' part of what was kept: whether the API answered (or its fault, since when), and what was made. */
export function madeStatus({ problem, entries }: Made): Record<string, unknown> {
  const count = (test: (k: Known) => boolean) => Object.values(entries).filter(test).length;
  return {
    api: problem === undefined ? 'ok' : problem.fault,
    ...(problem ? { since: isoWarsaw(problem.since), error: problem.message } : {}),
    made: count((k) => k.by === 'bridge' && !k.gone),
    kept: count((k) => k.by === 'family' && !k.gone),
    removed_by_the_family: count((k) => k.gone === true),
  };
}
