// What Assist may ask of a feature (interface 17.1), beside its board and dashboard parts: the facts a pass keeps of
// the feature's own view for Assist (SourceResult.ask, typed by the feature as `… satisfies TimetableAsk`), and what
// the feature tells of them for each of Assist's questions, in the family's language. The MCP server
// (src/outputs/mcp/) keeps each child's last facts per feature and assembles the parts of every feature, naming
// none; a feature's part reads its facts as its own type, so renaming a field it reads fails the typecheck there.
// The facts are the view's own objects, never a copy: a part keeps only what its answers need.
import type { Language } from '../../config/language.js';
import type { Want } from '../../engine/resource.js';
import type { BoardMoment } from './shown.js';

/** Who and when Assist asks for: the child as the family calls it, the family's language, the moment. */
export interface AskContext {
  /** The child's first name (the board's). */
  name: string;
  language: Language;
  /** Warsaw's day and wall time now. */
  clock: BoardMoment;
  now: number;
}

/**
 * One section of an answer: a heading and its lines. `lines: null` is unknown (said as unknown in the family's
 * language, never as none); an empty list is known to be none (said as `empty`, else the common "none").
 */
export interface Told {
  title: string;
  lines: readonly string[] | null;
  empty?: string;
}

/**
 * Whom send_message's `to` names: the person (full name) and the option of the recipient list that the write command
 * is then given; or a refusal with every option the child's account may write to; null while the list is not known.
 */
export type Recipient = { person: string; option: string } | { refused: 'unknown' | 'ambiguous'; options: readonly string[] } | null;

/** The question of get_grades: a subject's name or beginning, and how many days back (none: the default of the part). */
export interface GradesAsked {
  subject: string | null;
  days: number | null;
}

/** The question of get_messages: the last `days` days, or the past school years' archive. */
export interface MessagesAsked {
  days: number;
  archive: boolean;
}

/** The question of get_lesson_topics: a subject's name or beginning (null: all), one date, else the last `days` days. */
export interface TopicsAsked {
  subject: string | null;
  date: string | null;
  days: number;
}

/** The question of get_upcoming: until which day (inclusive), and a subject's name or beginning (null: every subject). */
export interface UpcomingAsked {
  until: string;
  subject: string | null;
}

/** A question whose answer may need what the bridge does not hold (interface 18.2): get_day's dates, get_messages' archive. */
export type ReachAsked = { tool: 'day'; dates: readonly string[] } | { tool: 'messages'; archive: boolean };

/**
 * A feature's part of Assist's answers (F: what its pass keeps for Assist). Each question a part answers is a
 * function of its facts; a question it cannot answer from them (an unknown subject) throws AskRefusal.
 */
export interface AskPart<F> {
  /** Its facts before its first computation (a start leaves it for later): honest unknowns in their own shape. */
  unknown: F;
  /** get_day: what it knows of one date (its lessons, homework due, tests, a day off). */
  day?(facts: F, date: string, c: AskContext): readonly Told[];
  /** The lessons' days it holds (the first and the last) and the next school day: get_day's reach. */
  days?(facts: F): { first: string; last: string; next: string | null } | null;
  /** get_upcoming: what is ahead from today to `until` (inclusive), of one subject or all. */
  upcoming?(facts: F, asked: UpcomingAsked, c: AskContext): readonly Told[];
  grades?(facts: F, asked: GradesAsked, c: AskContext): readonly Told[];
  /** get_lesson_topics: the topics of one date, or of the last `days` days, of a subject or all. */
  topics?(facts: F, asked: TopicsAsked, c: AskContext): readonly Told[];
  /** get_attendance: the semester's, and the absences of the last `days` days (null: the part's default). */
  attendance?(facts: F, asked: { days: number | null }, c: AskContext): readonly Told[];
  behaviour?(facts: F, c: AskContext): readonly Told[];
  school?(facts: F, c: AskContext): readonly Told[];
  /** get_messages: the messages of the last `days` days, or (`archive`) of past school years. */
  messages?(facts: F, asked: MessagesAsked, c: AskContext): readonly Told[];
  /** open_message: the message opened last, whole; null when none is. */
  opened?(facts: F, c: AskContext): string | null;
  /** send_message: whom `to` names among those the child's account may write to (by the write command's own rule). */
  recipient?(facts: F, to: string): Recipient;
  /**
   * The copies a question needs that its facts do not hold (a week of the school year, a past year's mailbox), each
   * `onDemand`: read from the portal then (engine/on-demand.ts), the feature computes from them and answers.
   */
  reach?(facts: F, asked: ReachAsked): readonly Want[];
}

/** The questions a part may answer, by name. */
export type AskQuestion = Exclude<keyof AskPart<unknown>, 'unknown' | 'days' | 'opened' | 'recipient' | 'reach'>;

/** A question the facts cannot answer as asked, in words a parent (through the model) can act on. */
export class AskRefusal extends Error {
  override readonly name = 'AskRefusal';
}

/** Names a thing loosely: case, diacritics and spacing aside (`Łukasz` is `lukasz`). */
export function loose(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Of `names`, the one `given` names: the same, else the only one it begins, else the only one holding it. */
export function named<T>(given: string, items: readonly T[], name: (item: T) => string): T | undefined {
  const wanted = loose(given);
  if (wanted === '') return undefined;
  const same = items.find((i) => loose(name(i)) === wanted);
  if (same !== undefined) return same;
  const starting = items.filter((i) => loose(name(i)).startsWith(wanted));
  if (starting.length > 0) return starting[0];
  return items.find((i) => loose(name(i)).includes(wanted));
}

/** Whether a fact of `subject` is among those asked for: every one when none is asked, else a subject the asked name begins. */
export function ofSubject(asked: string | null, subject: string | null | undefined): boolean {
  return asked === null || loose(subject ?? '').startsWith(loose(asked));
}

/** The facts of a line, without the unknown ones, joined: "Matematyka, s. 12". */
export function joinedFacts(parts: readonly (string | null | undefined | false)[], separator = ', '): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(separator);
}
