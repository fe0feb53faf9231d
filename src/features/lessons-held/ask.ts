// What Assist asks of the lessons held (interface 17.1): the topics of the last days, what to catch up after an
// absence, and what to revise before each test ahead. From the feature's own view of the year's lessons held.
import { RECENT_DAYS, type LessonHeld, type MissedLesson } from '../../rules/realizations.js';
import type { AgendaItem } from '../../rules/agenda.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { dayShort, spaced } from '../screens/shown.js';
import { joinedFacts, ofSubject, type AskContext, type AskPart, type TopicsAsked, type Told, type UpcomingAsked } from '../screens/ask.js';

/** What a pass keeps for Assist of the lessons held: null while Realizations is unknown; none before the agenda or absences are. */
export interface LessonsHeldAsk {
  /** The last 14 days' lessons held, newest first. */
  recent: readonly LessonHeld[] | null;
  /** The school year's lessons held, newest first (get_lesson_topics of a date, or up to 60 days back); null with `recent`. */
  held: readonly LessonHeld[] | null;
  /** The school year's lessons missed, newest first, with what was taught; null while the attendance is not known. */
  missed: readonly MissedLesson[] | null;
  /** Each test or quiz ahead with the topics of its subject to revise; null while the agenda is not known. */
  revise: readonly { test: AgendaItem; topics: readonly LessonHeld[] }[] | null;
  /** The portal refuses the child's account the lessons held (a kindergarten): nothing to tell. */
  absent: boolean;
  /** The portal refuses the child's account the attendance: no lessons missed to tell. */
  attendanceAbsent: boolean;
}

/** The lessons missed with what was taught, left out when the account has no attendance. */
function caughtUp(facts: LessonsHeldAsk, keep: (l: LessonHeld) => boolean, c: AskContext): Told[] {
  if (facts.attendanceAbsent) return [];
  return [{ title: ASK_TEXT[c.language].lessonsHeld.catchUp, lines: facts.missed?.filter(keep).map((l) => line(l, c)) ?? null }];
}

function line(l: LessonHeld, c: AskContext): string {
  const text = BOARD_TEXT[c.language];
  const place = joinedFacts([`${dayShort(l.date, c.clock, text)} (${l.date})`, l.no === null ? null : `${l.no}.`, l.subject], ' ');
  return `${place}: ${spaced(l.topic) ?? ASK_TEXT[c.language].lessonsHeld.noTopic}`;
}

function topics(facts: LessonsHeldAsk, asked: TopicsAsked, c: AskContext): Told[] {
  if (facts.absent) return [];
  const w = ASK_TEXT[c.language].lessonsHeld;
  const since = addDays(c.clock.today, 1 - asked.days);
  const when = (l: LessonHeld): boolean => (asked.date === null ? l.date >= since && l.date <= c.clock.today : l.date === asked.date);
  const keep = (l: LessonHeld): boolean => when(l) && ofSubject(asked.subject, l.subject);
  const held = facts.recent === null ? null : (facts.held ?? facts.recent);
  return [{ title: w.topics, lines: held?.filter(keep).map((l) => line(l, c)) ?? null }, ...caughtUp(facts, keep, c)];
}

/** After an absence, what was taught in the lessons missed of the last 14 days. */
function attendance(facts: LessonsHeldAsk, _asked: { days: number | null }, c: AskContext): Told[] {
  if (facts.absent) return [];
  const since = addDays(c.clock.today, 1 - RECENT_DAYS);
  return caughtUp(facts, (l) => l.date >= since && l.date <= c.clock.today, c);
}

function upcoming(facts: LessonsHeldAsk, { until, subject }: UpcomingAsked, c: AskContext): Told[] {
  if (facts.absent) return [];
  const text = BOARD_TEXT[c.language];
  const ahead = facts.revise?.filter((r) => r.test.date <= until && ofSubject(subject, r.test.subject));
  const revise = (r: NonNullable<LessonsHeldAsk['revise']>[number]): string => {
    const what = joinedFacts([r.test.subject, r.test.category]);
    const topics = r.topics.flatMap((t) => spaced(t.topic) ?? []).join('; ');
    return `${joinedFacts([`${dayShort(r.test.date, c.clock, text)} (${r.test.date})`, what], ' ')}: ${topics || ASK_TEXT[c.language].common.unknown}`;
  };
  // Two tests of a subject and kind on one day have one list to revise: told once.
  return [
    { title: ASK_TEXT[c.language].lessonsHeld.revise, lines: facts.recent === null || ahead === undefined ? null : [...new Set(ahead.map(revise))] },
  ];
}

export const lessonsHeldAsk: AskPart<LessonsHeldAsk> = {
  unknown: { recent: null, held: null, missed: null, revise: null, absent: false, attendanceAbsent: false },
  topics,
  attendance,
  upcoming,
};
