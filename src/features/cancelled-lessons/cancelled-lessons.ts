// The cancelled lessons feature: how many lessons of this school week the school cancelled, from the
// timetable the bridge already reads (no request of its own); a count on the board, a fact on the dashboard, and
// each of them in Assist's answer to what is ahead (get_upcoming).
import { sensor } from '../kit/entities.js';
import { shape, statesOf, type PublishedAs } from '../kit/contract.js';
import { withAttributes } from '../kit/render.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { TimetableOutput } from '../timetable/entities.js';
import { SUBSTITUTIONS } from '../timetable/resources.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { feature } from '../feature.js';
import { boardCount } from '../screens/parts.js';
import { ofSubject, type AskContext, type AskPart, type Told, type UpcomingAsked } from '../screens/ask.js';
import { dayShort } from '../screens/shown.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';

/** A cancelled lesson: its day, number and subject. */
export interface CancelledLesson {
  date: string;
  lesson_no: number | null;
  subject: string | null;
}

/** The attributes of cancelled_lessons_week: each cancelled lesson of the week. */
export type CancelledLessonsFacts = { lessons: CancelledLesson[] };

/**
 * What a pass keeps for Assist: the week's cancelled lessons, null while the timetable does not cover the week;
 * `absent` for a kindergarten, whose plan of blocks has no lessons to cancel (left out, never "not known yet").
 */
export interface CancelledLessonsAsk {
  lessons: readonly CancelledLesson[] | null;
  absent: boolean;
}

export const cancelledLessonsWeek = sensor(
  'cancelled_lessons_week',
  { en: 'Cancelled lessons this week', pl: 'Odwołane lekcje w tym tygodniu', uk: 'Скасовані уроки цього тижня' },
  // A kindergarten has no timetable (its kindergarten plan of blocks stands in): the entity leaves her device, never a made-up 0.
  {
    short: { en: 'Cancelled', pl: 'Odwołane', uk: 'Скасовані' },
    icon: 'mdi:calendar-remove',
    stateClass: 'measurement',
    attributes: shape<CancelledLessonsFacts>(),
    module: [SUBSTITUTIONS, TIMETABLE],
    state: (timetable: Pick<TimetableOutput, 'fortnight' | 'kind'>) => renderCancelledLessons(timetable),
  },
);

export const cancelledLessons = feature({
  name: 'cancelled_lessons',
  inputs: ['timetable'],
  entities: [cancelledLessonsWeek],
  create: (): Source => ({ compute: (ctx) => Promise.resolve(compute(ctx)) }),
  // On the board only when there are some: a count under the child's name, marked.
  board: (child) => boardCount(child, cancelledLessonsWeek, false),
  dashboard: { fact: { entity: cancelledLessonsWeek, icon: '🚫' } },
  ask: { unknown: { lessons: null, absent: false }, upcoming } satisfies AskPart<CancelledLessonsAsk>,
});

function compute(ctx: SourceContext): SourceResult {
  const timetable = ctx.inputs.timetable; // the timetable feature's output of this pass
  if (timetable === undefined) return {}; // before its first good read: keep what is published
  return {
    states: statesOf([cancelledLessonsWeek], timetable),
    ask: { lessons: cancelledThisWeek(timetable), absent: timetable.kind === 'kindergarten' } satisfies CancelledLessonsAsk,
  };
}

/** get_upcoming: the week's cancelled lessons (of the subject asked, if one is), each by its day, number and subject ("wt. 24.11 (2026-11-24): 3. Matematyka"). */
function upcoming(facts: CancelledLessonsAsk, { subject }: UpcomingAsked, c: AskContext): Told[] {
  if (facts.absent) return [];
  const line = (l: CancelledLesson) =>
    `${dayShort(l.date, c.clock, BOARD_TEXT[c.language])} (${l.date}): ${[l.lesson_no === null ? null : `${l.lesson_no}.`, l.subject].filter((p) => p !== null).join(' ')}`;
  return [
    { title: ASK_TEXT[c.language].cancelled.week, lines: facts.lessons && facts.lessons.filter((l) => ofSubject(subject, l.subject)).map(line) },
  ];
}

/** This week's cancelled lessons (Monday to Sunday); null, never none, for a week the timetable does not cover or a kindergarten's plan. */
export function cancelledThisWeek(timetable: Pick<TimetableOutput, 'fortnight' | 'kind'>): CancelledLesson[] | null {
  const week = timetable.fortnight.slice(0, 7);
  if (timetable.kind === 'kindergarten' || week.every((day) => day.lessons === undefined)) return null;
  const cancelled = week.flatMap((day) => day.changes.filter((change) => change.kind === 'cancelled'));
  return cancelled.map(({ date, lesson_no, subject }) => ({ date, lesson_no, subject }));
}

/** The count of this week's cancelled lessons; unknown, never 0, where the week is not known. */
export function renderCancelledLessons(timetable: Pick<TimetableOutput, 'fortnight' | 'kind'>): PublishedAs<CancelledLessonsFacts> {
  const lessons = cancelledThisWeek(timetable);
  return lessons === null ? { state: null, attributes: {} } : withAttributes(lessons.length, { lessons });
}
