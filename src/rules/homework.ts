// Real homework (HomeWorkAssignments): what is due on the next school day, and one piece of news
// per assignment. The records have no subject: it comes from the lesson, or from the teacher
// when the timetable and the lessons show that teacher teaching the class exactly one subject.
import type { HomeworkAssignment } from '../portal/schemas/agenda.js';
import type { Lesson } from '../portal/schemas/lookups.js';
import type { TimetableDays } from '../portal/schemas/timetable.js';
import { addDays, dayOfWeek } from '../util/time.js';
import { byId, collapse, dayOf } from './portal-values.js';
import { textCompare } from './order.js';
import type { NewsItem } from './news.js';
import type { Names } from './names.js';

export interface HomeworkItem {
  key: string;
  subject: string | null;
  topic: string | null;
  text: string | null;
  teacher: string | null;
  /** YYYY-MM-DD. */
  assigned: string | null;
  due: string | null;
  attachments: string[];
  /** Saved copies of the attachments (downloads on), each with where the web server serves it. */
  files?: { name: string; url: string }[];
  /** Whether the child marked it done; null when the child's id is not known. */
  done: boolean | null;
}

export interface HomeworkInput {
  assignments: readonly HomeworkAssignment[];
  /** The Lessons lookup (lesson -> subject, teacher). */
  lessons?: readonly Lesson[];
  /** The Timetables fetched; their lessons tell which subjects a teacher teaches. */
  timetable?: TimetableDays;
  names: Names;
  /** The child's user id, to read StudentsWhoMarkedAsDone. */
  childUserId?: string;
  /** Where a saved attached file is served, by file id (only when downloads are on); undefined until saved. */
  savedFiles?: (fileId: string) => string | undefined;
}

/** Teacher id -> the subject ids they teach the class, from the Lessons lookup and the timetable. */
function teacherSubjects(lessons?: readonly Lesson[], timetable?: TimetableDays): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (teacher: string | undefined, subject: string | undefined): void => {
    if (teacher !== undefined && subject !== undefined) out.set(teacher, (out.get(teacher) ?? new Set<string>()).add(subject));
  };
  for (const l of lessons ?? []) add(l.Teacher, l.Subject);
  for (const l of Object.values(timetable ?? {}).flat(2)) add(l.Teacher?.id, l.Subject?.id);
  return out;
}

export function homeworkItems(input: HomeworkInput): HomeworkItem[] {
  const lessons = byId(input.lessons);
  const taught = teacherSubjects(input.lessons, input.timetable);
  return input.assignments
    .map((h) => {
      const only = h.Teacher === undefined ? undefined : taught.get(h.Teacher);
      const subjectId = (h.Lesson === undefined ? undefined : lessons.get(h.Lesson)?.Subject) ?? (only?.size === 1 ? [...only][0] : undefined);
      return {
        key: `homework:${h.Id}`,
        subject: input.names.subject(subjectId),
        topic: collapse(h.Topic) ?? null,
        text: collapse(h.Text) ?? null,
        teacher: input.names.teacher(h.Teacher),
        assigned: dayOf(h.Date) ?? null,
        due: dayOf(h.DueDate) ?? null,
        attachments: h.HomeworkAssigmentFiles.map((f) => f.Name?.trim()).filter((n) => n !== undefined),
        files: input.savedFiles
          ? h.HomeworkAssigmentFiles.flatMap((f) => {
              const url = input.savedFiles?.(f.Id);
              return url === undefined ? [] : [{ name: f.Name?.trim() ?? f.Id, url }];
            })
          : undefined,
        done: input.childUserId === undefined ? null : h.StudentsWhoMarkedAsDone.includes(input.childUserId),
      };
    })
    .sort((a, b) => textCompare(a.due ?? '9999', b.due ?? '9999'));
}

/** The next weekday after today: the stand-in when the timetable cannot tell the next school day. */
export function nextWeekday(today: string): string {
  let day = addDays(today, 1);
  while (dayOfWeek(day) > 5) day = addDays(day, 1);
  return day;
}

/** What a parent reads of an assignment (its key is only for telling them apart). */
export const homeworkFields = ({ key: _key, ...item }: HomeworkItem): Omit<HomeworkItem, 'key'> => item;

/** The homework due on one day. */
export type HomeworkDue = ReturnType<typeof homeworkDue>;

/** Homework due on the next school day (or, unknown that, the next weekday). */
export function homeworkDue(items: readonly HomeworkItem[], today: string, nextSchoolDay: string | null) {
  const date = nextSchoolDay ?? nextWeekday(today);
  return { date, items: items.filter((i) => i.due === date) };
}

/** How far ahead homework_upcoming looks: today and the next 14 days. */
export const UPCOMING_DAYS = 14;

/**
 * Whether homework due on `due` is still to do: due today or within the next 14 days. What homework_upcoming lists
 * and what Home Assistant's homework list adds (homeassistant/homework.ts), one rule for both.
 */
export function isUpcoming(due: string | null, today: string): boolean {
  return due !== null && due >= today && due <= addDays(today, UPCOMING_DAYS);
}

/** The homework due from today through the next 14 days, soonest first, as a parent reads it (its saved files too). */
export function homeworkUpcoming(items: readonly HomeworkItem[], today: string) {
  return items
    .filter((i) => isUpcoming(i.due, today))
    .map((i) => ({
      date: i.due,
      subject: i.subject,
      topic: i.topic,
      text: i.text,
      teacher: i.teacher,
      added: i.assigned,
      attachments: i.attachments,
      // Downloads on: the saved copies, each with where the web server serves it (the board links them).
      ...(i.files ? { files: i.files } : {}),
    }));
}

/** What a `homework` event carries for an assignment: its fields, of kind `homework`. */
export type AssignmentPayload = { kind: 'homework' } & Omit<HomeworkItem, 'key'>;

/** One `homework` event candidate per assignment not yet past due. */
export function homeworkEvents(items: readonly HomeworkItem[], today: string): NewsItem<AssignmentPayload>[] {
  return items.filter((i) => i.due === null || i.due >= today).map((i) => ({ id: i.key, payload: { kind: 'homework', ...homeworkFields(i) } }));
}
