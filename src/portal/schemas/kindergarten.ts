// A kindergarten's own service (live-notes 34-35): the kindergarten plan of a kindergartener as time blocks without
// lesson numbers, every reference an identifier string, and the lookups that name them.
import * as z from 'zod';
import { lenientList } from './common.js';
import { text, lenient } from './fields.js';

const entry = z.looseObject({
  date: text,
  startTime: text,
  endTime: text,
  activityTypeIdentifier: text,
  classroomIdentifier: text,
  teachers: lenient((v) => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [])),
  /** Only `planned` has been seen. */
  type: text,
});
/** ms/kindergartens/timetable/kindergarteners/<lid>?dateFrom&dateTo. */
export const kindergartenPlanResponse = z.looseObject({ timetableEntries: lenientList(entry) });

const activity = z.looseObject({ identifier: z.string(), name: text });
/** ms/kindergartens/activities-types: the activities play the part of subjects. */
export const activitiesTypesResponse = z.looseObject({ activitiesTypes: lenientList(activity) });

const room = z.looseObject({ identifier: z.string(), symbol: text, name: text });
/** Auth/Classrooms: the rooms by identifier. */
export const authClassroomsResponse = z.looseObject({ data: lenientList(room) });

export type KindergartenEntry = z.output<typeof entry>;
export type KindergartenPlan = z.output<typeof kindergartenPlanResponse>;

/** Auth/Users/Kindergarteners/<lid>: the child's group (live-notes 35). */
export const kindergartenerResponse = z.looseObject({ data: z.looseObject({ groupIdentifier: z.string() }) });
/** ms/kindergartens/groups/<group id>: its name and its tutors (identifiers, as the kindergarten plan's teachers). */
export const kindergartenGroupResponse = z.looseObject({ name: text, tutors: entry.shape.teachers });
