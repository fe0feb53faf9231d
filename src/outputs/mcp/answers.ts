// What the read tools answer (interface 17.1): every feature's `ask` part (features/screens/ask.ts) given the facts its
// last pass kept for Assist (facts.ts), laid out as text in the family's language under the child's name. The parts
// tell; this file only assembles them in the features' order, says a section unknown or none as its part says, puts
// several children one under the other and cuts an answer that would flood a model's context. No fact is derived
// here, no portal is asked, no feature is named.
import type { Language } from '../../config/language.js';
import type { ChildView } from '../web/types.js';
import type { Feature } from '../../features/feature.js';
import type { BoardWarning } from '../../features/screens/parts.js';
import { FEATURES } from '../../features/index.js';
import { AskRefusal, loose, type AskContext, type AskPart, type AskQuestion, type ReachAsked, type Told } from '../../features/screens/ask.js';
import { clockAt, dayTitle } from '../../features/screens/shown.js';
import { MCP_TEXT, type McpText } from '../../i18n/mcp-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { WEEKDAYS } from '../../i18n/lesson-words.js';
import { addDays, dayOfWeek } from '../../util/time.js';
import { DAY_DAYS_MAX, MESSAGE_DAYS, TOPIC_DAYS, TOPIC_DAYS_MAX, UPCOMING_DAYS_MAX } from './tools.js';
import type { Want } from '../../engine/resource.js';

/** The longest answer: a model's context is not flooded, a longer one ends with how to ask for less. */
export const ANSWER_MAX_CHARS = 24_000;

/** One child as a read tool is given it: its name as the family calls it, the board's warning, its facts by feature. */
export interface Asked {
  child: ChildView;
  name: string;
  warning: BoardWarning | null;
  facts: ReadonlyMap<string, unknown>;
  /** What asking the school for this question did (read just now, the hour's limit reached), said under the heading. */
  note?: string;
}

/** What a read tool was asked, its arguments as the schemas say. */
export interface Question {
  date?: string;
  days?: number;
  subject?: string;
  archive?: boolean;
}

/** A tool's answer: its text, and whether it is a refusal (an MCP tool error). */
export interface ToolAnswer {
  text: string;
  isError?: boolean;
}

/** The features with a part of Assist's answers, each with its part (typed by the feature: its facts are its own). */
const PARTS: readonly { feature: Feature; part: AskPart<unknown> }[] = FEATURES.flatMap((feature) =>
  feature.ask === undefined ? [] : [{ feature, part: feature.ask }],
);

/** Each part's facts for a child: its last pass's, or its honest unknowns before its first. */
function each<R>(asked: Asked, call: (part: AskPart<unknown>, facts: unknown) => R | undefined): R[] {
  return PARTS.flatMap(({ feature, part }) => {
    const told = call(part, asked.facts.has(feature.name) ? asked.facts.get(feature.name) : part.unknown);
    return told === undefined ? [] : [told];
  });
}

/** The sections every part tells for one question. */
function told(asked: Asked, question: (part: AskPart<unknown>, facts: unknown) => readonly Told[] | undefined): Told[] {
  return each(asked, question).flat();
}

/** Sections as lines: a heading and its list (one fact beside it), unknown said as unknown, none as none (or the part's own words). */
function sections(list: readonly Told[], w: McpText): string[] {
  return list.flatMap((s) => {
    if (s.lines === null) return [`${s.title}: ${w.unknown}`];
    if (s.lines.length === 0) return [`${s.title}: ${s.empty ?? w.none}`];
    if (s.lines.length === 1) return [`${s.title}: ${s.lines[0]}`];
    return [`${s.title}:`, ...s.lines.map((l) => `- ${l}`)];
  });
}

function heading(asked: Asked, title: string): string[] {
  const warning = asked.warning;
  return [
    `${asked.name} (${asked.child.id}) — ${title}`,
    ...(warning === null ? [] : [[warning.text, warning.detail].filter(Boolean).join(' ')]),
    ...(asked.note === undefined ? [] : [asked.note]),
  ];
}

/** A read tool's text for one child: its heading, then each part's sections (or that the child's account keeps none). */
function answered(asked: Asked, title: string, list: readonly Told[], w: McpText): string {
  return [...heading(asked, title), ...(list.length === 0 ? [w.nothingKept] : sections(list, w))].join('\n');
}

/** What the context of a part's answer is for a child. */
export function contextOf(asked: Asked, language: Language, now: number): AskContext {
  return { name: asked.name, language, clock: clockAt(now), now };
}

// --- the dates get_day is asked ---

/**
 * The date `given` names: today, tomorrow (the next school day, as the timetable tells it), a weekday (its next, or
 * its last when `toward` is back), or YYYY-MM-DD.
 */
export function dateAsked(given: string | undefined, asked: Asked, c: AskContext, w: McpText, toward: 'ahead' | 'back' = 'ahead'): string {
  const value = loose(given ?? 'today');
  const today = c.clock.today;
  if (value === 'today' || value === '') return today;
  if (value === 'tomorrow') return each(asked, (part, facts) => part.days?.(facts)?.next ?? undefined)[0] ?? addDays(today, 1);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && Number.isFinite(Date.parse(`${value}T12:00:00Z`))) return value;
  // A weekday in any of the family's languages: its next one (today's when it is today).
  for (const names of Object.values(WEEKDAYS)) {
    const index = names.long.findIndex((d) => loose(d) === value);
    if (index >= 0) return addDays(today, toward === 'ahead' ? (index + 1 - dayOfWeek(today) + 7) % 7 : -((dayOfWeek(today) - index - 1 + 7) % 7));
  }
  throw new AskRefusal(w.badDate(given?.slice(0, 40) ?? ''));
}

// --- the read tools ---

/** The dates get_day is asked for: from the date it names, `days` of them. */
export function dayDates(asked: Asked, q: Question, language: Language, now: number): string[] {
  const first = dateAsked(q.date, asked, contextOf(asked, language, now), MCP_TEXT[language]);
  const count = Math.min(Math.max(q.days ?? 1, 1), DAY_DAYS_MAX);
  return Array.from({ length: count }, (_, i) => addDays(first, i));
}

/** What the question needs that the child's facts do not hold: each part's copies to read on demand (interface 18.2). */
export function reachOf(asked: Asked, question: ReachAsked): Want[] {
  return each(asked, (part, facts) => part.reach?.(facts, question)).flat();
}

export function getDay(asked: Asked, q: Question, language: Language, now: number): string {
  const c = contextOf(asked, language, now);
  const w = MCP_TEXT[language];
  return dayDates(asked, q, language, now)
    .map((date) =>
      answered(
        asked,
        `${dayTitle(date, c.clock, BOARD_TEXT[language])} (${date})`,
        told(asked, (part, facts) => part.day?.(facts, date, c)),
        w,
      ),
    )
    .join('\n\n');
}

export function getUpcoming(asked: Asked, q: Question, language: Language, now: number): string {
  const c = contextOf(asked, language, now);
  const span = Math.min(Math.max(q.days ?? 14, 1), UPCOMING_DAYS_MAX);
  const until = addDays(c.clock.today, span);
  const subject = q.subject?.trim() || null;
  return answered(
    asked,
    `${c.clock.today} – ${until}${subject === null ? '' : ` (${subject})`}`,
    told(asked, (part, facts) => part.upcoming?.(facts, { until, subject }, c)),
    MCP_TEXT[language],
  );
}

/** The read tools other than get_day and get_upcoming: their question and title, each part's sections. */
export function getOther(
  tool: Exclude<AskQuestion, 'day' | 'upcoming'>,
  title: string,
  asked: Asked,
  q: Question,
  language: Language,
  now: number,
): string {
  const c = contextOf(asked, language, now);
  const topicDate = tool === 'topics' && q.date !== undefined ? dateAsked(q.date, asked, c, MCP_TEXT[language], 'back') : null;
  const ask = (part: AskPart<unknown>, facts: unknown): readonly Told[] | undefined => {
    switch (tool) {
      case 'grades':
        return part.grades?.(facts, { subject: q.subject?.trim() || null, days: q.days ?? null }, c);
      case 'topics':
        return part.topics?.(
          facts,
          { subject: q.subject?.trim() || null, date: topicDate, days: Math.min(Math.max(q.days ?? TOPIC_DAYS, 1), TOPIC_DAYS_MAX) },
          c,
        );
      case 'attendance':
        return part.attendance?.(facts, { days: q.days ?? null }, c);
      case 'behaviour':
        return part.behaviour?.(facts, c);
      case 'school':
        return part.school?.(facts, c);
      case 'messages':
        return part.messages?.(facts, { days: q.days ?? MESSAGE_DAYS, archive: q.archive === true }, c);
    }
  };
  return answered(asked, title, told(asked, ask), MCP_TEXT[language]);
}

/** The message opened last, whole: what open_message answers after the command (null when none is opened). */
export function openedText(asked: Asked, language: Language, now: number): string | null {
  const c = contextOf(asked, language, now);
  return each(asked, (part, facts) => part.opened?.(facts, c) ?? undefined)[0] ?? null;
}

/** Whom send_message's `to` names for the child, by the part that keeps the recipient list; null while it is not known. */
export function recipientOf(asked: Asked, to: string) {
  return each(asked, (part, facts) => (part.recipient === undefined ? undefined : part.recipient(facts, to)))[0] ?? null;
}

/** Several children's answers one under the other. */
export function joinedAnswers(texts: readonly string[]): string {
  return texts.join('\n\n');
}

/** A line at most this long is told whole or left out at the cut; a longer one (a pasted document, a message on one line) is cut to the room left. */
const LINE_KEPT_WHOLE = 500;

/**
 * Every answer of every tool, open_message's too (interface 18.4): one past ANSWER_MAX_CHARS is cut, with a last line
 * saying how to ask for less. It is cut at a line's end, so that no fact is told half; but a line too long to be a fact
 * is cut itself, so that one over-long line never empties the answer.
 */
export function capped(text: string, w: McpText): string {
  if (text.length <= ANSWER_MAX_CHARS) return text;
  const room = ANSWER_MAX_CHARS - w.cut.length - 2;
  // The line the cap falls in: from after the newline before it to the newline after it.
  const start = text.lastIndexOf('\n', room) + 1;
  const next = text.indexOf('\n', room);
  const long = (next < 0 ? text.length : next) - start > LINE_KEPT_WHOLE;
  const kept = long || start === 0 ? `${text.slice(0, room - 1)}…` : text.slice(0, start - 1);
  return `${kept}\n${w.cut}`;
}
