// A feature's parts of the screens beside its entities: its fact on the family board's card, its lines in
// the dashboard's family view and its line among `check`'s modules. The board (web/board-model.ts), the
// dashboard (ha/dashboard.ts) and `check` (commands/check.ts) assemble them from every feature, naming none.
import type { Language } from '../config/language.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { Received } from '../feature-kit/contract.js';
import type { Resource } from '../feature-kit/resource.js';

/** What a feature's board part reads: the child's last published states, by declaration, and the day. */
export interface ShownChild {
  state<E extends EntityDef>(entity: E): Received<E> | undefined;
  language: Language;
  /** Today in Warsaw (YYYY-MM-DD). */
  today: string;
  /** A day in a few words, as the board says it: "jutro", "czw. 19.11". */
  day(date: string): string;
}

/** A fact on a child's board card, drawn by the page without knowing the feature. */
export interface BoardFact {
  /** A badge stands beside the child's name (the lucky number), a count in the line under it. */
  look: 'badge' | 'count';
  /** Its entity's name, and what the feature adds ("na jutro"). */
  label: string;
  value: string;
  /** Highlighted: the child's own, with these words under a badge ("To Ty!"); null when plain. */
  mark: string | null;
}

/** A feature's part of the dashboard's family view, in each child's column. */
export interface DashboardPart {
  /** Over the column while a binary sensor is ON: its words for the child's name, in the language. */
  banner?: { while: EntityDef<string, unknown, 'ON' | 'OFF'>; icon: string; says(language: Language, name: string): string };
  /**
   * In the summary line under the banners: the entity's name and state, and the day it is for when not today: the
   * attribute naming it (`'day' satisfies AttributeName<typeof luckyNumber>`).
   */
  fact?: { entity: EntityDef; icon: string; day?: string };
}

/** A feature's line among `check`'s modules: its list, read as the bridge reads it, and whether an answer says the school runs it. */
export interface CheckProbe {
  read: Resource;
  name(language: Language): string;
  used?(answer: unknown): boolean;
}

/** A `check` line whose `used` reads its list's answer as the declaration types it. */
export function checkProbe<T>(probe: { read: Resource<T>; name(language: Language): string; used?(answer: T): boolean }): CheckProbe {
  return probe;
}

/**
 * A count under the child's name on the board, marked above 0, labelled by the entity's short name unless told;
 * none while unknown (never a made-up 0), nor 0 unless `zero`.
 */
export function boardCount(child: ShownChild, e: EntityDef, zero = true, label = (e.short ?? e.name)[child.language]): BoardFact | null {
  const n = Number(child.state(e)?.state ?? NaN);
  return Number.isInteger(n) && n >= 0 && (zero || n > 0) ? { look: 'count', label, value: String(n), mark: n > 0 ? '' : null } : null;
}

/** A value the screens show: a text that is not empty, else null (an old retained state may hold anything). */
export const shownText = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
