// The cancelled lessons feature: how many lessons of this school week the school cancelled, from the
// timetable the bridge already reads (no request of its own); a count on the board, a fact on the dashboard.
import { sensor } from '../kit/entities.js';
import { shape, statesOf, type PublishedAs } from '../kit/contract.js';
import { withAttributes } from '../kit/render.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { TimetableOutput } from '../timetable/entities.js';
import { SUBSTITUTIONS } from '../timetable/resources.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { feature } from '../feature.js';
import { boardCount } from '../screens/parts.js';

/** The attributes of cancelled_lessons_week: each cancelled lesson's day, number and subject. */
export type CancelledLessonsFacts = { lessons: { date: string; lesson_no: number | null; subject: string | null }[] };

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
});

function compute(ctx: SourceContext): SourceResult {
  const timetable = ctx.inputs.timetable; // the timetable feature's output of this pass
  if (timetable === undefined) return {}; // before its first good read: keep what is published
  return { states: statesOf([cancelledLessonsWeek], timetable) };
}

/** This week's cancelled lessons (Monday to Sunday); unknown, never 0, for a week the timetable does not cover or a kindergarten's plan. */
export function renderCancelledLessons(timetable: Pick<TimetableOutput, 'fortnight' | 'kind'>): PublishedAs<CancelledLessonsFacts> {
  const week = timetable.fortnight.slice(0, 7);
  if (timetable.kind === 'kindergarten' || week.every((day) => day.lessons === undefined)) return { state: null, attributes: {} };
  const cancelled = week.flatMap((day) => day.changes.filter((change) => change.kind === 'cancelled'));
  return withAttributes(cancelled.length, { lessons: cancelled.map(({ date, lesson_no, subject }) => ({ date, lesson_no, subject })) });
}
