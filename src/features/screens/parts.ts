// What a feature's screens are made of, beside its entities: its boxes on the family board's card (the
// layouts the page draws, src/outputs/web/browser/), its cards in the dashboard's views, and its line among `check`'s
// modules. The board (web/board-model.ts), the dashboard (homeassistant/dashboard.ts) and `check` (app/commands/check.ts)
// assemble them from every feature, naming none; a feature makes its parts from the facts its own view computed.
import type { Language } from '../../config/language.js';
import type { EntityDef } from '../kit/entities.js';
import { type Received, received } from '../kit/contract.js';
import type { Resource } from '../../engine/resource.js';
import type { ChangeKind } from '../../rules/plan-changes.js';
import { BOARD_TEXT, type BoardText } from '../../i18n/board-text.js';
import type { EntityState } from '../../engine/state.js';
import type { DashboardText } from '../../i18n/dashboard-text.js';
import type { ChildEntities } from './child-entities.js';
import { clockAt, type BoardMoment } from './shown.js';

/** What a feature's board part reads: the child's last published states, by declaration, and the moment the board is drawn for. */
export interface ShownChild {
  state<E extends EntityDef>(entity: E): Received<E> | undefined;
  language: Language;
  /** The board's words in the language. */
  text: BoardText;
  /** The moment, as Warsaw's day and wall time. */
  clock: BoardMoment;
  /** Whether the bridge holds the child's account now (its device is online). */
  online: boolean;
}

/** A child as the features' board parts read it: its published states (the MQTT payloads, by key) at `now`. */
export function shownChild(states: ReadonlyMap<string, EntityState>, language: Language, now: number, online = true): ShownChild {
  return { state: (entity) => received(states, entity), language, text: BOARD_TEXT[language], clock: clockAt(now), online };
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

// --- the board's boxes: the layouts the page draws (src/outputs/web/browser/cards.ts, boxes.ts) ---

export interface BoardLesson {
  no: number | null;
  from: string | null;
  to: string | null;
  subject: string | null;
  room: string | null;
  change: ChangeKind | null;
  /** The change in words (timetable_*'s `note`), e.g. "zastępstwo · zamiast: Matematyka"; null for an unchanged lesson. */
  note: string | null;
  /** done: over; now: in progress (today only). */
  status: 'done' | 'now' | null;
  /** An extra class (zajęcia dodatkowe): no kindergarten's block for want of a number. Undefined (left out of the board's JSON) otherwise. */
  extra: true | undefined;
  /**
   * A kindergarten's block (its day `kindergarten`, as the timetable says it; an extra class aside): said by its
   * hours, no number. Undefined (left out) otherwise.
   */
  block: true | undefined;
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
  change: ChangeKind | null;
}

/** One change of the next school day's timetable, as a line of the news. */
export interface BoardNextChange {
  /** "jutro", "pon. 23.11": the day, named on each line. */
  day: string;
  no: number | null;
  /** When it was to start (a lesson moved away: the slot it leaves). */
  time: string | null;
  subject: string | null;
  change: ChangeKind;
  /** "odwołana", "zastępstwo · zamiast: Matematyka", "zmiana sali · s. 4 · było: s. 12", "przeniesiona na czw. 26.11, lekcja 7". */
  note: string;
}

export interface BoardNextChanges {
  date: string;
  /** "Zmiany planu: jutro, czw. 19.11", "Zmiany planu: pon. 23.11". */
  title: string;
  items: BoardNextChange[];
}

/** This and next week against the standing weekly plan (interface 18.2), each difference under its day. */
export interface BoardStanding {
  /** "Inaczej niż w stałym planie". */
  title: string;
  /** "wt. 24.11", and the difference as every screen says it: "3. sala 214 zamiast 105". */
  items: { day: string; line: string }[];
}

/** An unread announcement by its title. */
export interface BoardNotice {
  title: string;
  /** "dziś", "pon. 16.11"; null when the day is unknown. */
  when: string | null;
}

/** A saved attachment is a link (`/files/<c>/homework/<id>/<name>`). */
export interface BoardHomework {
  title: string;
  /** `when`: the day it is due (null when unknown). */
  items: Array<{ when: string | null; subject: string | null; text: string; files: Array<{ name: string; url: string }> }>;
}

export interface BoardTest {
  when: string;
  subject: string | null;
  /** "kartkówka" or "sprawdzian". */
  kind: string;
  text: string | null;
}

/** A trip, a parent-teacher meeting or another entry of the agenda. */
export interface BoardAgendaEntry {
  /** "pt. 20.11 17:30"; a trip of several days by its first and last day, "wt. 17.11 – czw. 19.11". */
  when: string;
  /** "wycieczka", "zebranie", "wydarzenie". */
  kind: string;
  text: string | null;
}

export interface BoardGrade {
  grade: string;
  /** What a mark that is no grade means ("nie jest oceną", "nieprzygotowany"); null for a grade. */
  name: string | null;
  subject: string | null;
  /** "J. Kowalska". */
  teacher: string | null;
  /** A text grade: its words are the grade ("Aktywnie uczestniczy w zajęciach…"), cut to a line. */
  text: boolean;
  /** The teacher's comment, cut to a line. */
  comment: string | null;
  /** The grade the subject's average gives ("prognoza 4"); null when it has none. */
  forecast: string | null;
  when: string;
  /** Entered in the last days: news, which the card keeps longest when space runs short. */
  fresh: boolean;
}

export interface BoardProposal {
  grade: string;
  subject: string | null;
  /** "propozycja śródroczna". */
  what: string;
  when: string;
}

export interface BoardMessage {
  topic: string;
  sender: string | null;
  /** "dziś", "pt. 20.11"; null when the date is unknown. */
  when: string | null;
}

export interface BoardMessages {
  /** The unread inbox messages the bridge listed, newest first; the card shows them above the opened one. */
  unread: BoardMessage[];
  opened:
    | (BoardMessage & {
        text: string /** The sender withdrew it. */;
        withdrawn: boolean;
        attachments: Array<{ name: string /** /files/<c>/<id>/<name>; null when not saved. */; url: string | null }>;
      })
    | null;
}

/** The school's own things under its name; each feature gives its lines (the box merges them). */
export interface BoardSchool {
  /** The school's name, the box's heading; null while not known. */
  name?: string | null;
  behaviour?: string | null;
  /** This semester's attendance in words; null before the first mark. */
  attendance?: string | null;
  /** Each subject's attendance this semester, the lowest first (as `attendance` lists them). */
  bySubject?: Array<{ subject: string; percent: string }>;
  /** The class tutor's name; null while not known. */
  tutor?: string | null;
  /** The newest sent message: read by every receiver, or not yet. */
  sent?: { topic: string; read: boolean } | null;
  /** /files/<c>/school/<id>/<name> when saved, else null. */
  files?: Array<{ name: string; url: string | null }>;
}

/** The clear sign that what the card shows cannot be trusted as current. */
export interface BoardWarning {
  kind: 'offline' | 'problem' | 'stale' | 'waiting';
  text: string;
  detail: string | null;
}

/**
 * A child's card as its boxes, each given by the feature that owns it: a list box (facts, notices, agenda,
 * proposals) gathers every feature's items in the features' order, the school's box every feature's lines;
 * any other box has one owner.
 */
export interface BoardBoxes {
  /** The features' facts (a badge beside the name, counts under it), in the features' order. */
  facts: BoardFact[];
  headline: BoardHeadline | null;
  /** The briefing's short line (the next school day in a sentence); null before the first. */
  briefing: string | null;
  day: BoardDay | null;
  /** The next school day's plan changes while the timetable shows another day; null when there are none. */
  nextChanges: BoardNextChanges | null;
  /** How this and next week differ from the standing plan; null (no box) when they do not, or it is not known. */
  standing: BoardStanding | null;
  /** The unread announcements by their titles, newest first. */
  notices: BoardNotice[];
  /** Null (no box) when the homework list has no state: never answered, or refused for this child (a kindergarten). */
  homework: BoardHomework | null;
  /** Tests and quizzes only (upcoming_tests' two weeks); null (no box) while upcoming_tests has no state. */
  tests: BoardTest[] | null;
  /** Trips, meetings and the other agenda entries: no test, so not under the tests' heading. */
  agenda: BoardAgendaEntry[];
  /** Null (no box) when the grades have no state and no proposal stands. */
  grades: BoardGrade[] | null;
  /** The proposed term grades entered in the last 7 days: "propozycja śródroczna". */
  proposals: BoardProposal[];
  /** The newest message while unread and the opened one; null when there is neither. */
  messages: BoardMessages | null;
  school: BoardSchool;
  warning: BoardWarning | null;
  /** "Aktualizacja 09:11"; null before the first read. */
  updated: string | null;
}

/** A feature's part of a child's board card: the boxes it owns, or its items of a list box. */
export type BoardPart = (child: ShownChild) => Partial<BoardBoxes> | null;

// --- the dashboard's cards ---

export type Card = Record<string, unknown>;

/** Where a card is made for: the dashboard's language and the address a saved file's link goes after (none: named only). */
export interface DashboardPlace {
  language: Language;
  base: string | undefined;
}

/** A card of a child's, or nothing when the child lacks what it needs. */
export type Block = (e: ChildEntities, t: DashboardText, at: DashboardPlace) => Card | undefined;

/** The places of the family view's column, top to bottom (homeassistant/dashboard.ts keeps this order). */
export type FamilySlot = 'alert' | 'lead' | 'day' | 'ahead' | 'news';
/** The sections of a child's own view, in their order (homeassistant/dashboard.ts). */
export type ChildSection = 'activities' | 'grades' | 'lessons' | 'notesAbsences' | 'calendar' | 'messages' | 'school';

/** A feature's cards in the dashboard's views. */
export interface DashboardPart {
  /** Over the column while a binary sensor is ON: its words for the child's name, in the language. */
  banner?: { while: EntityDef<string, unknown, 'ON' | 'OFF'>; icon: string; says(language: Language, name: string): string };
  /**
   * In the summary line under the banners: the entity's name and state, and the day it is for when not today: the
   * attribute naming it (`'day' satisfies AttributeName<typeof luckyNumber>`).
   */
  fact?: {
    entity: EntityDef;
    icon: string;
    day?: string;
    /** Words after the state while an attribute of the entity is true ("To Ty!" while lucky_number's `mine` is). */
    mark?: { attribute: string; says(language: Language): string };
  };
  /** Its cards in each child's column of the family view, at their place. */
  family?: readonly { at: FamilySlot; block: Block }[];
  /** Its cards in the child's own view, under their section; within one, in the features' order. */
  child?: readonly { section: ChildSection; block: Block }[];
  /** Its cards in the bridge's diagnostics view, for each child. */
  diagnostics?: readonly Block[];
}

// --- `check` ---

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
export function boardCount(child: ShownChild, e: EntityDef, zero = true, label = (e.short ?? e.name)[child.language]): Partial<BoardBoxes> | null {
  const n = Number(child.state(e)?.state ?? NaN);
  return Number.isInteger(n) && n >= 0 && (zero || n > 0) ? { facts: [{ look: 'count', label, value: String(n), mark: n > 0 ? '' : null }] } : null;
}
