// The briefing in words, one function per language: a short line for a screen (the state, at most 255
// characters, hours as digits) and the whole briefing as it reads aloud (no abbreviation a speech
// engine would spell out). Subjects stay as the school wrote them.
import type { Language } from '../config/language.js';
import type { ChangeKind } from '../rules/plan-changes.js';
import type { AgendaKind } from '../rules/agenda.js';
import { dayOfWeek } from '../util/time.js';
import { AGENDA_WORDS, CHANGE_WORDS, WEEKDAYS } from './lesson-words.js';

/** What the briefing tells of one day (features/briefing/rules.ts computes it), as these words read it. */
export interface Briefing {
  /** The day it is about (YYYY-MM-DD), and how far it is: today, tomorrow, or a later day named by its weekday. */
  day: string;
  when: 'today' | 'tomorrow' | 'later';
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** HH:MM of the day's span, as every screen says it. */
  start: string | null;
  end: string | null;
  /** Every slot of the day in order, its change and its words as the timetable says them, and whether the child goes to it. */
  lessons: { subject: string; change: ChangeKind | null; note: string | null; takesPlace: boolean }[];
  tests: { subject: string | null; kind: AgendaKind }[];
  homework: { subject: string | null }[];
  /** The lucky number is the child's on that day. */
  luckyMine: boolean;
  /** The proposed term grades that are news (of the last 7 days), newest first: each subject with its grade. */
  proposals: { subject: string | null; grade: string }[];
  /** The weekdays without lessons between today and the day briefed (a holiday, a free day of the school). */
  freeBefore: { date: string; name: string | null }[];
}

/** Home Assistant's limit for a state. */
export const MAX_STATE = 255;

/** Polish: 1 lekcja, 2–4 lekcje, 5 lekcji (and 12–14 lekcji). */
function slavic(n: number, one: string, few: string, many: string): string {
  const tens = n % 100;
  if (n === 1) return one;
  if (n % 10 >= 2 && n % 10 <= 4 && (tens < 12 || tens > 14)) return few;
  return many;
}

const PL_WEEKDAY_AT = ['W poniedziałek', 'We wtorek', 'W środę', 'W czwartek', 'W piątek', 'W sobotę', 'W niedzielę'];
const UK_WEEKDAY_AT = ['У понеділок', 'У вівторок', 'У середу', 'У четвер', "У п'ятницю", 'У суботу', 'У неділю'];
const EN_WEEKDAY_AT = WEEKDAYS.en.long.map((d) => `On ${d}`);

const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const EN = {
  none: 'No lessons in the days ahead.',
  when: (b: Briefing) => (b.when === 'today' ? 'Today' : b.when === 'tomorrow' ? 'Tomorrow' : EN_WEEKDAY_AT[b.weekday - 1]!),
  lessonsCount: (n: number) => `${n} ${n === 1 ? 'lesson' : 'lessons'}`,
  hoursAloud: (from: string, to: string) => `lessons from ${from} to ${to}`,
  inOrder: 'In order',
  changes: 'Changes',
  /** A test's and a quiz's word, as the agenda's. */
  agenda: AGENDA_WORDS.en,
  homework: 'Homework due',
  proposals: 'Proposed grades',
  lucky: "The lucky number is the child's number!",
  luckyShort: 'lucky number!',
  free: (weekday: string, name: string | null) => `${weekday} is free${name ? `: ${name}` : ''}.`,
  changeWords: CHANGE_WORDS.en satisfies Readonly<Record<ChangeKind, string>>,
  weekdays: WEEKDAYS.en.long,
  /** A kindergarten child's day: its blocks' activities instead of lessons. */
  kindergarten: {
    none: 'No kindergarten in the days ahead.',
    at: 'at kindergarten',
    hoursAloud: (from: string, to: string) => `at kindergarten from ${from} to ${to}`,
  },
};

/** The parts each language fills in (the English table is the shape); `say` puts them together the same way for all. */
type Phrases = typeof EN;

const PL: Phrases = {
  none: 'Brak lekcji w najbliższych dniach.',
  when: (b) => (b.when === 'today' ? 'Dziś' : b.when === 'tomorrow' ? 'Jutro' : PL_WEEKDAY_AT[b.weekday - 1]!),
  lessonsCount: (n) => `${n} ${slavic(n, 'lekcja', 'lekcje', 'lekcji')}`,
  hoursAloud: (from, to) => `lekcje od ${from} do ${to}`,
  inOrder: 'Po kolei',
  changes: 'Zmiany',
  agenda: AGENDA_WORDS.pl,
  homework: 'Zadanie domowe na ten dzień',
  proposals: 'Propozycje ocen',
  lucky: 'Szczęśliwy numerek to numer dziecka!',
  luckyShort: 'szczęśliwy numerek!',
  free: (weekday, name) => `${upper(weekday)} wolny${name ? `: ${name}` : ''}.`,
  changeWords: CHANGE_WORDS.pl,
  weekdays: WEEKDAYS.pl.long,
  kindergarten: {
    none: 'Brak zajęć w przedszkolu w najbliższych dniach.',
    at: 'w przedszkolu',
    hoursAloud: (from, to) => `w przedszkolu od ${from} do ${to}`,
  },
};

const UK: Phrases = {
  none: 'Найближчими днями уроків немає.',
  when: (b) => (b.when === 'today' ? 'Сьогодні' : b.when === 'tomorrow' ? 'Завтра' : UK_WEEKDAY_AT[b.weekday - 1]!),
  lessonsCount: (n) => `${n} ${slavic(n, 'урок', 'уроки', 'уроків')}`,
  hoursAloud: (from, to) => `уроки з ${from} до ${to}`,
  inOrder: 'По черзі',
  changes: 'Зміни',
  agenda: AGENDA_WORDS.uk,
  homework: 'Домашнє завдання на цей день',
  proposals: 'Пропозиції оцінок',
  lucky: 'Щасливий номер — номер дитини!',
  luckyShort: 'щасливий номер!',
  free: (weekday, name) => `${upper(weekday)} — вихідний${name ? `: ${name}` : ''}.`,
  changeWords: CHANGE_WORDS.uk,
  weekdays: WEEKDAYS.uk.long,
  kindergarten: { none: 'Найближчими днями садочок не працює.', at: 'у садочку', hoursAloud: (from, to) => `у садочку з ${from} до ${to}` },
};

/** One sentence: "Label: a, b." (nothing for an empty list). */
function listed(label: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`${label}: ${items.join(', ')}.`];
}

/** A day in one language's phrases: `state`, the short line, and `text`, read aloud; a kindergarten's names its activities. */
function say(p: Phrases, b: Briefing | null, kind: BriefingKind = 'school') {
  const none = kind === 'kindergarten' ? p.kindergarten.none : p.none;
  if (b === null) return { state: none, text: none };
  // "8:00", not "08:00": the way a clock is read and a screen shows an hour.
  const start = b.start?.replace(/^0(?=\d:)/, '') ?? null;
  const end = b.end?.replace(/^0(?=\d:)/, '') ?? null;
  const hours = start !== null && end !== null ? `${start}–${end}` : '';
  const free = b.freeBefore.map((f) => p.free(p.weekdays[dayOfWeek(f.date) - 1]!, f.name));
  const when = p.when(b);
  if (kind === 'kindergarten') {
    // "Jutro 8:00–12:30 w przedszkolu: rytmika, spacer." (the activities in order).
    const k = p.kindergarten;
    const activities = b.lessons.filter((l) => l.takesPlace).map((l) => l.subject ?? '?');
    const list = activities.length === 0 ? '.' : `: ${activities.join(', ')}.`;
    const state = `${[when, hours, k.at].filter((s) => s !== '').join(' ')}${list}`;
    const aloud = start !== null && end !== null ? `${when} ${k.hoursAloud(start, end)}${list}` : state;
    return { state: clip([state, ...free].join(' ')), text: [...free, aloud].join(' ') };
  }
  const held = b.lessons.filter((l) => l.takesPlace).map((l) => l.subject);
  // A change in the timetable's words on a screen (its `note`), by its kind aloud (the note's first word: its days and rooms are abbreviated).
  const changed = (aloud: boolean): string[] =>
    b.lessons.flatMap((l) => (l.change === null ? [] : [`${l.subject} (${aloud ? p.changeWords[l.change] : (l.note ?? p.changeWords[l.change])})`]));
  const subjects = (which: 'test' | 'quiz'): string[] => b.tests.filter((t) => t.kind === which).map((t) => t.subject ?? '?');
  const homework = b.homework.map((h) => h.subject ?? '?');
  const facts = (aloud: boolean): string[] => [
    ...listed(p.agenda.test, subjects('test')),
    ...listed(p.agenda.quiz, subjects('quiz')),
    ...listed(p.changes, changed(aloud)),
    ...listed(p.homework, homework),
    ...listed(
      p.proposals,
      b.proposals.map((g) => `${g.subject ?? '?'} ${g.grade}`),
    ),
  ];
  const text = [
    ...free,
    start !== null && end !== null ? `${when} ${p.hoursAloud(start, end)}.` : `${when}.`,
    ...listed(p.inOrder, held),
    ...facts(true),
    ...(b.luckyMine ? [p.lucky] : []),
  ].join(' ');
  const head = [when, hours].filter((s) => s !== '').join(' ') + `, ${p.lessonsCount(held.length)}${b.luckyMine ? `, ${p.luckyShort}` : '.'}`;
  return { state: clip([head, ...facts(false), ...free].join(' ')), text };
}

/** A school child's day, or a kindergarten child's (its activities instead of lessons). */
export type BriefingKind = 'school' | 'kindergarten';

/** At most MAX_STATE characters, cut at a word with an ellipsis; the head (day and hours) comes first, so it stays. */
function clip(line: string): string {
  if (line.length <= MAX_STATE) return line;
  const cut = line.slice(0, MAX_STATE - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).replace(/[,.:;]$/, '')}…`;
}

/** The briefing in each language: `state`, the short line for a screen, and `text`, the whole of it read aloud. */
export const BRIEFING_TEXT: Readonly<Record<Language, (b: Briefing | null, kind?: BriefingKind) => ReturnType<typeof say>>> = {
  pl: (b, kind) => say(PL, b, kind),
  en: (b, kind) => say(EN, b, kind),
  uk: (b, kind) => say(UK, b, kind),
};
