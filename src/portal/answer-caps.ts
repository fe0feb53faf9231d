// How large a gateway answer may be, per resource. The bridge runs with a 64 MB heap, and reading an
// answer holds it twice for a moment: the decoded text and the parsed records. Polish text is two
// bytes a character in V8, so an answer of N bytes costs about 4N of heap (a 15.8 MB one took the
// heap past 64 MB). The caps follow what each resource holds (spec 2): a school year of records for
// the long lists, one record or a short lookup for the rest, each with a wide margin, and small
// enough that two accounts reading their largest answer at once still fit beside the bridge.
const MB = 1024 * 1024;

/** A school year of records: about 190 days of up to 10 lessons, or a school's announcements. */
export const LIST_ANSWER_BYTES = 4 * MB;
/** One record, a week, a month or a school's lookup (the largest, DescriptiveGrades/Skills, is about 330 KB). */
export const ANSWER_BYTES = 2 * MB;
/** An answer at least this large is marked before it is read (store/heavy-answers.ts), so that a crash while reading it is remembered. */
export const HEAVY_ANSWER_BYTES = MB;

/** The resources that list a school year (or more) of records. */
const YEAR_LISTS: ReadonlySet<string> = new Set([
  'Attendances',
  'BaseTextGrades',
  'BehaviourGrades',
  'BehaviourGrades/Points',
  'Calendars/Substitutions',
  'DescriptiveGrades',
  'DescriptiveGrades/Comments',
  'Grades',
  'Grades/Comments',
  'HomeWorkAssignments',
  'HomeWorks',
  'Justifications',
  'Lessons',
  'Notes',
  'ParentTeacherConferences',
  'PointGrades',
  'PointGrades/Comments',
  'Realizations',
  'SchoolFiles',
  'SchoolNotices',
  'TimetableEntries',
  'Users',
]);

/** The cap of an endpoint's answer (its path under /gateway/api/2.0/, without the query). */
export function answerCap(endpoint: string): number {
  return YEAR_LISTS.has(endpoint) ? LIST_ANSWER_BYTES : ANSWER_BYTES;
}
