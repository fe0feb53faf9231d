// The family board's view model: what the wall tablet shows for each child, built from the states the
// bridge last published (ChildView.states, exactly the MQTT payloads) and the time. Pure: no I/O; every
// word comes from src/i18n/board-text.ts in the bridge's language.
import { BOARD_TEXT, type BoardLabels, type BoardText } from '../i18n/board-text.js';
import type { Language } from '../i18n/language.js';
import type { EntityState } from '../ha/state.js';
import { addDays, dayOfWeek, wallTime } from '../util/time.js';
import type { ChildView } from './types.js';

export type LessonChange = 'cancelled' | 'substitution' | 'room_change' | 'shifted';

export interface BoardLesson {
  no: number | null;
  from: string | null;
  to: string | null;
  subject: string | null;
  room: string | null;
  change: LessonChange | null;
  /** The change in words, e.g. "zastępstwo · zamiast: Matematyka"; null for an unchanged lesson. */
  note: string | null;
  /** done: over; now: in progress (today only). */
  status: 'done' | 'now' | null;
}

export interface BoardDay {
  date: string;
  /** "Dziś, środa 18.11", "Jutro, czwartek 19.11", "Poniedziałek 23.11". */
  title: string;
  lessons: BoardLesson[];
  /** Shown instead of the list when the day has no lessons. */
  empty: string | null;
}

/** The headline line: the lesson in progress, or the next one (today's or the next school day's first). */
export interface BoardHeadline {
  label: string;
  subject: string;
  /** "s. 14 · do 09:40", "08:55 · s. 12". */
  detail: string;
  change: LessonChange | null;
}

export interface BoardChild {
  id: string;
  name: string;
  /** The device's model line, e.g. "Klasa 4b". */
  className: string | null;
  lucky: { number: string; mine: boolean; /** "na czwartek", for a number of another day; else null. */ day: string | null } | null;
  headline: BoardHeadline | null;
  day: BoardDay | null;
  homework: { title: string; items: Array<{ subject: string | null; text: string }> };
  tests: Array<{ when: string; subject: string | null; kind: string; text: string | null }>;
  grades: Array<{ grade: string; subject: string | null; when: string }>;
  unread: { messages: number | null; notices: number | null };
  /** The clear sign that what the card shows cannot be trusted as current; null when it can. */
  warning: { kind: 'offline' | 'problem' | 'stale' | 'waiting'; text: string; detail: string | null } | null;
  updated: string | null;
}

export interface BoardModel {
  language: Language;
  labels: BoardLabels;
  children: BoardChild[];
}

/** During the day (06:00-21:00) the bridge polls every few minutes; at night every 2 hours. */
export const STALE_DAY_MS = 60 * 60_000;
export const STALE_NIGHT_MS = 3 * 60 * 60_000;
const DAY_STARTS = '06:00';
const DAY_ENDS = '21:00';

const MAX_HOMEWORK = 4;
const MAX_TESTS = 3;
const MAX_GRADES = 5;
/** A grade is a short mark; a descriptive text grade is cut to stay one. */
const MAX_GRADE_CHARS = 12;
const MAX_TEXT_CHARS = 90;

/** The board for every child the bridge holds, at `now`. */
export function boardModel(children: readonly ChildView[], language: Language, now: number): BoardModel {
  const text = BOARD_TEXT[language];
  // Always in the same places: the bridge learns its children in whatever order their first polls end.
  const sorted = [...children].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const names = callNames(sorted);
  return { language, labels: text.labels, children: sorted.map((c, i) => ({ ...childBoard(c, text, now), name: names[i] as string })) };
}

/**
 * The names a family calls its children by across the room: the first names, unless two children
 * share one (then the full names); the id until the first identity.
 */
function callNames(children: readonly ChildView[]): string[] {
  const full = children.map((c) => c.name ?? c.id);
  const first = full.map((n) => n.split(/\s+/)[0] || n);
  return first.every((n, i) => first.indexOf(n) === i) ? first : full;
}

interface Clock {
  now: number;
  today: string;
  time: string;
}

function childBoard(child: ChildView, text: BoardText, now: number): BoardChild {
  const wall = wallTime(now);
  const clock: Clock = { now, today: wall.date, time: wall.time.slice(0, 5) };
  const s = (key: string): EntityState | undefined => child.states.get(key);
  const day = shownDay(s('timetable_today'), s('timetable_tomorrow'), clock, text);
  const updated = lastUpdate(s('last_update'));
  return {
    id: child.id,
    name: child.name ?? child.id,
    className: child.model,
    lucky: luckyOf(s('lucky_number'), clock, text),
    headline: headlineOf(s('current_lesson'), day, clock, text),
    day,
    homework: homeworkOf(s('homework_due'), clock, text),
    tests: testsOf(s('upcoming_tests'), s('next_test'), clock, text),
    grades: gradesOf(s('newest_grade'), clock, text),
    unread: { messages: count(s('unread_messages')), notices: count(s('unread_notices')) },
    warning: warningOf(child, clock, text),
    updated: updated === null ? null : text.updated(when(updated, clock)),
  };
}

// --- reading published states (lenient: an old retained state may lack a field) ---

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

function count(state: EntityState | undefined): number | null {
  const n = Number(state?.state ?? NaN);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

function cut(value: string | null, max: number): string | null {
  if (value === null) return null;
  const one = value.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

// --- dates in words ---

function dayMonth(date: string): string {
  return `${date.slice(8, 10)}.${date.slice(5, 7)}`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function weekday(date: string, text: BoardText, short = false): string {
  return (short ? text.weekdaysShort : text.weekdays)[dayOfWeek(date) - 1] ?? '';
}

/** "Dziś, środa 18.11" / "Jutro, czwartek 19.11" / "Poniedziałek 23.11". */
function dayTitle(date: string, clock: Clock, text: BoardText): string {
  const plain = `${weekday(date, text)} ${dayMonth(date)}`;
  if (date === clock.today) return `${text.today}, ${plain}`;
  if (date === addDays(clock.today, 1)) return `${text.tomorrow}, ${plain}`;
  return capital(plain);
}

/** A day as short words for a list: "jutro", "czw. 19.11". */
function dayShort(date: string, clock: Clock, text: BoardText): string {
  if (date === clock.today) return text.today.toLowerCase();
  if (date === addDays(clock.today, 1)) return text.tomorrow.toLowerCase();
  return `${weekday(date, text, true)} ${dayMonth(date)}`;
}

/** An ISO timestamp as the board says it: "09:11" today, else "17.11 09:11". */
function when(iso: string, clock: Clock): string {
  const at = wallTime(Date.parse(iso));
  const time = at.time.slice(0, 5);
  return at.date === clock.today ? time : `${dayMonth(at.date)} ${time}`;
}

function lastUpdate(state: EntityState | undefined): string | null {
  const iso = str(state?.state);
  return iso !== null && Number.isFinite(Date.parse(iso)) ? iso : null;
}

// --- the parts of a card ---

function luckyOf(state: EntityState | undefined, clock: Clock, text: BoardText): BoardChild['lucky'] {
  const number = str(state?.state);
  if (number === null) return null;
  const day = str(state?.attributes?.day);
  const registerNumber = str(state?.attributes?.register_number);
  return { number, mine: registerNumber !== null && registerNumber === number, day: day === null || day === clock.today ? null : text.luckyFor(dayShort(day, clock, text)) };
}

function lessonsOf(state: EntityState | undefined): { date: string; lessons: Record<string, unknown>[] } | null {
  const date = str(state?.attributes?.date);
  if (date === null || state?.state === null || state?.state === undefined) return null;
  return { date, lessons: list(state.attributes?.lessons) };
}

const CHANGES: readonly LessonChange[] = ['cancelled', 'substitution', 'room_change', 'shifted'];

function lessonOf(l: Record<string, unknown>, today: boolean, clock: Clock, text: BoardText): BoardLesson {
  const change = CHANGES.find((c) => c === l.change) ?? null;
  const from = str(l.from);
  const to = str(l.to);
  const subject = str(l.subject);
  const room = str(l.room);
  const notes: string[] = [];
  if (change !== null) notes.push(text.changes[change]);
  const originalSubject = str(l.original_subject);
  const originalRoom = str(l.original_room);
  if (change !== null && change !== 'cancelled' && originalSubject !== null && originalSubject !== subject) notes.push(text.instead(originalSubject));
  // A substitute's room is often unknown: "was room 22" would then say the lesson moved when it may not have.
  if (change !== null && change !== 'cancelled' && room !== null && originalRoom !== null && originalRoom !== room) notes.push(text.wasRoom(originalRoom));
  let status: BoardLesson['status'] = null;
  if (today && to !== null && to <= clock.time) status = 'done';
  else if (today && from !== null && from <= clock.time && change !== 'cancelled') status = 'now';
  return { no: num(l.no), from, to, subject, room, change, note: notes.length > 0 ? notes.join(' · ') : null, status };
}

/** When today's last lesson that takes place ends (HH:MM); null without one. */
function lastEnd(lessons: readonly Record<string, unknown>[]): string | null {
  const ends = lessons.filter((l) => l.change !== 'cancelled').map((l) => str(l.to)).filter((t): t is string => t !== null);
  return ends.length > 0 ? ends.reduce((a, b) => (b > a ? b : a)) : null;
}

/** Today's lessons until the last one ends; then (or on a day without lessons) the next school day's. */
function shownDay(today: EntityState | undefined, next: EntityState | undefined, clock: Clock, text: BoardText): BoardDay | null {
  const t = lessonsOf(today);
  const n = lessonsOf(next);
  const end = t !== null && t.date === clock.today ? lastEnd(t.lessons) : null;
  const chosen = end !== null && clock.time < end ? t : (n ?? t);
  if (chosen === null) return null;
  const isToday = chosen.date === clock.today;
  const lessons = chosen.lessons.map((l) => lessonOf(l, isToday, clock, text));
  return { date: chosen.date, title: dayTitle(chosen.date, clock, text), lessons, empty: lessons.length === 0 ? text.noLessons : null };
}

function roomAnd(room: string | null, rest: string | null, text: BoardText, roomFirst = true): string {
  const parts = roomFirst ? [room && text.room(room), rest] : [rest, room && text.room(room)];
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

/**
 * The lesson in progress (current_lesson, moved on time by the bridge at each lesson start and end);
 * between lessons the next one of the day shown, for the next school day its first lesson.
 */
function headlineOf(current: EntityState | undefined, day: BoardDay | null, clock: Clock, text: BoardText): BoardHeadline | null {
  const subject = str(current?.state);
  const a = current?.attributes ?? {};
  if (subject !== null) {
    const change = CHANGES.find((c) => c === a.change) ?? null;
    const to = str(a.to);
    return { label: text.labels.now, subject, detail: roomAnd(str(a.room), to && text.until(to), text), change };
  }
  if (day === null) return null;
  const isToday = day.date === clock.today;
  const next = day.lessons.find((l) => l.change !== 'cancelled' && l.subject !== null && (!isToday || (l.from !== null && l.from > clock.time)));
  if (next === undefined) return null;
  const label = isToday ? text.labels.next : `${text.firstLesson} (${dayShort(day.date, clock, text)})`;
  return { label, subject: next.subject as string, detail: roomAnd(next.room, next.from, text, false), change: next.change };
}

function homeworkOf(state: EntityState | undefined, clock: Clock, text: BoardText): BoardChild['homework'] {
  const date = str(state?.attributes?.date);
  const items = list(state?.attributes?.items)
    .slice(0, MAX_HOMEWORK)
    .map((h) => ({ subject: str(h.subject), text: cut(str(h.topic) ?? str(h.text), MAX_TEXT_CHARS) ?? '' }));
  const title = date === null ? text.labels.homework : `${text.labels.homework} ${text.homeworkFor(dayShort(date, clock, text))}`;
  return { title, items };
}

/** "kartkówka" or "sprawdzian", by the words schools use (as the test event tells them apart). */
function testKind(item: Record<string, unknown>, text: BoardText): string {
  const words = `${str(item.category) ?? ''} ${str(item.content) ?? str(item.description) ?? ''}`.toLowerCase();
  return /kartk[oó]wk|quiz/.test(words) ? text.quiz : text.test;
}

function testsOf(upcoming: EntityState | undefined, next: EntityState | undefined, clock: Clock, text: BoardText): BoardChild['tests'] {
  const items = list(upcoming?.attributes?.items);
  if (items.length === 0 && str(next?.state) !== null) {
    // Without the agenda's list, the next test alone (lessons-held's next_test).
    const at = wallTime(Date.parse(next?.state as string));
    items.push({ date: at.date, subject: next?.attributes?.subject, content: next?.attributes?.description, category: next?.attributes?.kind });
  }
  return items.slice(0, MAX_TESTS).flatMap((t) => {
    const date = str(t.date);
    if (date === null) return [];
    return [{ when: dayShort(date, clock, text), subject: str(t.subject), kind: testKind(t, text), text: cut(str(t.content), MAX_TEXT_CHARS) }];
  });
}

function gradesOf(state: EntityState | undefined, clock: Clock, text: BoardText): BoardChild['grades'] {
  return list(state?.attributes?.recent)
    .slice(0, MAX_GRADES)
    .flatMap((g) => {
      const grade = cut(str(g.grade), MAX_GRADE_CHARS);
      const date = str(g.date);
      return grade === null ? [] : [{ grade, subject: str(g.subject), when: date === null ? '' : dayShort(date, clock, text) }];
    });
}

/** Offline beats a problem, which beats old data: the sign names the cause when it is known. */
function warningOf(child: ChildView, clock: Clock, text: BoardText): BoardChild['warning'] {
  const updated = lastUpdate(child.states.get('last_update'));
  const lastRead = updated === null ? null : when(updated, clock);
  if (!child.online && updated !== null) return { kind: 'offline', text: text.offline(lastRead as string), detail: null };
  const problem = child.states.get('problem');
  if (problem?.state === 'ON') return { kind: 'problem', text: text.problem, detail: str(problem.attributes?.message) };
  if (updated === null) return { kind: 'waiting', text: text.waiting, detail: null };
  const limit = clock.time >= DAY_STARTS && clock.time < DAY_ENDS ? STALE_DAY_MS : STALE_NIGHT_MS;
  if (clock.now - Date.parse(updated) > limit) return { kind: 'stale', text: text.stale(lastRead as string), detail: null };
  return null;
}
