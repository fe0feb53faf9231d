// The agenda and homework (spec 2.8): HomeWorks (tests, trips, meetings), real homework, parent-
// teacher meetings, school trips and shared school files (the last two camelCase under Data).
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, refId, idList, objectList } from './fields.js';

const homeWork = z.looseObject({
  Id: numericId,
  Category: refId,
  /** Absent for school-wide entries. */
  Subject: refId,
  Date: text,
  TimeFrom: text,
  /** When the entry ends (HH:MM:SS), as TimeFrom; absent or null when the school gave no end. */
  TimeTo: text,
  LessonNo: num,
  Content: text,
  CreatedBy: refId,
  AddDate: text,
});
export const homeWorksResponse = z.looseObject({ HomeWorks: lenientList(homeWork) });

const homeWorkCategory = z.looseObject({ Id: numericId, Name: text, Color: refId });
export const homeWorkCategoriesResponse = z.looseObject({ Categories: lenientList(homeWorkCategory) });

const homeworkFile = z.looseObject({ Id: numericId, Name: text, Url: text });

const homeworkAssignment = z.looseObject({
  Id: numericId,
  Topic: text,
  Text: text,
  Teacher: refId,
  Date: text,
  DueDate: text,
  Lesson: refId,
  Category: refId,
  /** Spelled so by the portal. */
  HomeworkAssigmentFiles: objectList(homeworkFile),
  StudentsWhoMarkedAsDone: idList,
});
export const homeworkAssignmentsResponse = z.looseObject({
  HomeWorkAssignments: lenientList(homeworkAssignment),
});

const conference = z.looseObject({ Id: numericId, Topic: text, Teacher: refId, Date: text, Time: text });
export const parentTeacherConferencesResponse = z.looseObject({
  ParentTeacherConferences: lenientList(conference),
});

const schoolTrip = z.looseObject({
  id: numericId,
  destination: text,
  route: text,
  termFrom: text,
  termTo: text,
  creatorName: text,
  creatorLastName: text,
  coordinatorName: text,
});
export const schoolTripsResponse = z.looseObject({ Data: lenientList(schoolTrip) });

const schoolFile = z.looseObject({
  id: numericId,
  displayName: text,
  /** "YYYY-MM-DD HH:MM:SS". */
  addedOnDate: text,
  /** A web path on the portal host (/pliki_szkoly/pobierz/<id>), downloaded through spec 4.6. */
  downloadUrl: text,
});
export const schoolFilesResponse = z.looseObject({ Data: lenientList(schoolFile) });

export type HomeWork = z.output<typeof homeWork>;
export type SchoolFile = z.output<typeof schoolFile>;
export type HomeWorkCategory = z.output<typeof homeWorkCategory>;
export type HomeworkAssignment = z.output<typeof homeworkAssignment>;
export type ParentTeacherConference = z.output<typeof conference>;
export type SchoolTrip = z.output<typeof schoolTrip>;
