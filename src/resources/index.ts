// Every portal resource the bridge reads, each declared once, in the order docs/polling.md lists them:
// who the child is, the grades, the timetable and the calendar, the rest of the register, the lookups,
// the messaging host. A test holds this list to every declaration exported here, to one declaration per
// endpoint, and to every request the bridge makes.
import type { Resource } from '../feature-kit/resource.js';
import * as G from './grades.js';
import * as T from './timetable.js';
import * as C from './calendar.js';
import * as S from './school.js';
import * as L from './lookups.js';
import * as M from './messaging.js';
import { CHANGES } from './feed.js';
import * as K from './kindergarten.js';

export const RESOURCES: readonly Resource[] = [
  S.IDENTITY,
  G.GRADES,
  G.POINT_GRADES,
  G.TEXT_GRADES,
  G.DESCRIPTIVE_GRADES,
  G.TOKEN_INFO,
  G.USER_INFO,
  G.PARTIAL_GRADES,
  G.AUTH_SUBJECTS,
  G.BEHAVIOUR_POINTS,
  G.GRADE_AVERAGES,
  G.GRADING_SYSTEM,
  G.UNITS,
  S.NOTICES,
  C.CALENDARS,
  C.CALENDAR_IDS,
  T.TIMETABLE,
  T.SUBSTITUTIONS,
  T.SCHOOL_FREE_DAYS,
  T.CLASS_FREE_DAYS,
  T.FREE_DAY_TYPES,
  K.KINDERGARTEN_SEARCH,
  K.KINDERGARTEN_PLAN,
  K.KINDERGARTEN_ACTIVITIES,
  K.KINDERGARTEN_ROOMS,
  S.HOMEWORKS,
  S.HOMEWORK_ASSIGNMENTS,
  S.CONFERENCES,
  S.TRIPS,
  S.ATTENDANCES,
  S.JUSTIFICATIONS,
  S.NOTES,
  S.LUCKY,
  S.REALIZATIONS,
  S.LIBRARY,
  S.SCHOOL_FILES,
  L.SUBJECTS,
  L.USERS,
  L.CLASSROOMS,
  L.LESSONS,
  G.GRADE_CATEGORIES,
  G.GRADE_COMMENTS,
  G.POINT_CATEGORIES,
  G.POINT_COMMENTS,
  G.TEXT_CATEGORIES,
  G.DESCRIPTIVE_COMMENTS,
  G.SKILLS,
  G.BEHAVIOUR_TYPES,
  G.BEHAVIOUR_COMMENTS,
  G.BEHAVIOUR_CATEGORIES,
  S.ATTENDANCE_TYPES,
  S.HOMEWORK_CATEGORIES,
  S.NOTE_CATEGORIES,
  M.UNREAD,
  M.INBOX,
  M.MAILBOX,
  M.SENT_BOX,
  M.SENT_MESSAGE,
  M.RECIPIENTS,
  CHANGES,
];
