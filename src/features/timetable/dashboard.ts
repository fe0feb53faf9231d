// The timetable on the dashboard: in each child's column of the family view the day (the lesson in progress or
// the next one, today's hours and lessons with their changes) and the next school day (its date with the
// weekday, hours, plan changes and the homework due); a kindergarten child's own view starts with both.
// Templates beside: today.jinja, next-day.jinja, and plan.jinja's macros for a slot and a change.
import { kindergartenVariable, markdown } from '../screens/cards.js';
import { keyed, reads } from '../screens/templates.js';
import type { Block, DashboardPart } from '../screens/parts.js';
import type { AttributeName } from '../kit/contract.js';
import { homeworkDueEntity } from '../agenda/entities.js';
import {
  atSchool,
  currentLesson,
  nextLesson,
  planChangesToday,
  planChangesTomorrow,
  schoolDayToday,
  schoolDayTomorrow,
  timetableToday,
  timetableTomorrow,
} from './entities.js';

const PARTS = ['outputs/homeassistant/templates/prelude', 'features/timetable/plan'];

const today: Block = (e, t) => {
  if (!e.has(currentLesson) && !e.has(nextLesson) && !e.has(timetableToday) && !e.has(planChangesToday)) return undefined;
  return markdown(
    e,
    t,
    'features/timetable/today',
    {
      ...keyed(currentLesson, 'from', 'to', 'room', 'row'),
      ...keyed(nextLesson, 'date', 'time', 'end', 'room'),
      school_day: reads(schoolDayToday),
      ...keyed(atSchool),
      timetable: reads(timetableToday, 'hours', 'lessons', 'kindergarten'),
      plan_changes: reads(planChangesToday, 'changes'),
      kindergarten: kindergartenVariable(e),
    },
    {},
    PARTS,
  );
};

/** A saved homework file links to the board's own address (base) + its url. */
const nextDay: Block = (e, t, { base }) => {
  if (!e.has(planChangesTomorrow) && !e.has(homeworkDueEntity) && !e.has(timetableTomorrow)) return undefined;
  return markdown(
    e,
    t,
    'features/timetable/next-day',
    {
      timetable: reads(timetableTomorrow, 'date', 'hours', 'lessons', 'kindergarten'),
      school_day: reads(schoolDayTomorrow, 'date'),
      plan_changes: reads(planChangesTomorrow, 'date', 'changes'),
      homework: reads(homeworkDueEntity, 'date', 'items'),
      base: { text: base },
      kindergarten: kindergartenVariable(e),
    },
    {},
    PARTS,
  );
};

const DIFFERENCES: AttributeName<typeof timetableToday> = 'standing_differences';

/**
 * This and next week against the standing plan (timetable_today's `standing_differences`), a school child's: shown
 * while a day differs (an empty list reads as '' to a condition, none as unknown), never an empty box.
 */
const standing: Block = (e, t) => {
  if (!e.has(timetableToday) || e.preschool) return undefined;
  const differs = { condition: 'state', entity: e.id(timetableToday), attribute: DIFFERENCES, state_not: ['', 'unknown'] };
  const variables = { timetable: reads(timetableToday, DIFFERENCES) };
  return markdown(e, t, 'features/timetable/standing', variables, { visibility: [differs] }, [PARTS[0]!]);
};

/** A kindergarten child's own view starts with its day (the blocks by their hours, today and the next day). */
const preschoolOnly =
  (block: Block): Block =>
  (e, t, at) =>
    e.preschool ? block(e, t, at) : undefined;

export const timetableDashboard: DashboardPart = {
  family: [
    { at: 'day', block: today },
    { at: 'day', block: nextDay },
    { at: 'day', block: standing },
  ],
  child: [
    { section: 'activities', block: preschoolOnly(today) },
    { section: 'activities', block: preschoolOnly(nextDay) },
  ],
};
