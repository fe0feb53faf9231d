// Free days and the class calendar (spec 2.8): school-wide and per-class free days (the latter for
// every class, named after their type), the class calendar ids and the month id lists.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, refId, anyId, optionalIdList } from './fields.js';

const schoolFreeDay = z.looseObject({ Id: numericId, Name: text, DateFrom: text, DateTo: text, AddDate: text });
export const schoolFreeDaysResponse = z.looseObject({ SchoolFreeDays: lenientList(schoolFreeDay) });

const classFreeDay = z.looseObject({
  Id: numericId,
  /** Calendars use string class ids; refId normalises both. */
  Class: refId,
  Type: refId,
  DateFrom: text,
  DateTo: text,
  /** When present only these lessons are free. */
  LessonNoFrom: num,
  LessonNoTo: num,
  AddDate: text,
});
export const classFreeDaysResponse = z.looseObject({ ClassFreeDays: lenientList(classFreeDay) });

const classFreeDayType = z.looseObject({ Id: numericId, Name: text });
export const classFreeDayTypesResponse = z.looseObject({ Types: lenientList(classFreeDayType) });

export const calendarsResponse = z.looseObject({ Calendars: lenientList(z.looseObject({ Id: anyId })) });

/**
 * Calendars/<id>?year=&month= (or the whole year without them): only ids per kind, so a change can be
 * noticed without the lists. A kind the answer lacks stays undefined.
 */
export const calendarMonthResponse = z.looseObject({
  Calendar: z.looseObject({
    HomeWorks: optionalIdList,
    Substitutions: optionalIdList,
    ParentTeacherConferences: optionalIdList,
    SchoolFreeDays: optionalIdList,
    ClassFreeDays: optionalIdList,
    Pages: z.looseObject({ Prev: text, Next: text }).optional().catch(undefined),
  }),
});

export type SchoolFreeDay = z.output<typeof schoolFreeDay>;
export type ClassFreeDay = z.output<typeof classFreeDay>;
export type ClassFreeDayType = z.output<typeof classFreeDayType>;
