// The gateway root's index of module names. Being listed does not make a module readable (many are
// quirks answering 403/404/405), exactly as on the real gateway.
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { quirkModules } from '../quirks.js';
import type { DataContext } from './context.js';

const LISTED = [
  'Me',
  'Schools',
  'Classes',
  'Units',
  'VirtualClasses',
  'Users',
  'UserProfile',
  'Subjects',
  'Classrooms',
  'Lessons',
  'Grades',
  'Grades/Categories',
  'Grades/Comments',
  'Grades/Types',
  'Grades/Averages',
  'Grades/Scales',
  'GradingSystem',
  'DescriptiveGrades',
  'DescriptiveTextGrades',
  'PointGrades',
  'TextGrades',
  'BaseTextGrades',
  'BehaviourGrades',
  'Attendances',
  'Justifications',
  'Timetables',
  'TimetableEntries',
  'Realizations',
  'PlannedLessons',
  'Calendars',
  'HomeWorks',
  'HomeWorkAssignments',
  'SchoolFreeDays',
  'ClassFreeDays',
  'ParentTeacherConferences',
  'SchoolTrips',
  'SchoolFiles',
  'SchoolNotices',
  'LuckyNumbers',
  'Notes',
  'EbiblioLendings',
  'Colors',
  'SystemData',
  'AdditionalModulesAccess',
  'PushConfigurations',
  'FileTransferRestrictions',
  'Regulations',
  'Help',
  'Auth',
  'Surveys',
  'SpecialAchievement',
];

export function gatewayIndex(ctx: DataContext): DataResult {
  const names = [...new Set([...LISTED, ...quirkModules.filter((n) => !n.includes('/'))])].sort();
  return answers.ok({
    Resources: Object.fromEntries(names.map((n) => [n, { Url: `${ctx.api}/${n}` }])),
    Url: `${ctx.api}/`,
  });
}
