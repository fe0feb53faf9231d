// A simulated child's register as the school keeps it: a private copy of the school and child fixtures
// (relative dates, short references, expanded on every request) and what tests and the demo do to it as
// teachers would (a new grade, a test moved, a plan change, an announcement). SimAccount (account.ts)
// adds the login and how the portal answers it.
import { randomBytes } from 'node:crypto';
import { loadFixture } from './fixtures.js';
import type { ChangeFixture, ChildFixture, NoticeFixture, SchoolFixture } from './fixtures.js';
import { SimYear } from './year.js';

export type SimNotice = NoticeFixture;

/** A lesson moved to another day or hour (live-notes 11): from its slot to another. */
export interface LessonMove {
  from: { date: string; lessonNo: number };
  to: { date: string; lessonNo: number };
}

export interface GradeInit {
  subject: number;
  category: number;
  grade: string;
  teacher?: number;
  lesson?: number;
  /** YYYY-MM-DD or a fixture date token such as "{{today}}"; default today. */
  date?: string;
  /** "YYYY-MM-DD HH:MM:SS"; default: the simulator's now. */
  addDate?: string;
  comment?: string;
  /** Id of an earlier grade this one corrects. */
  improves?: number;
  /** A semester or final grade, or a proposal of one, instead of an ordinary grade. */
  period?: 'semester_proposal' | 'semester' | 'final_proposal' | 'final';
}

/** A child's records given as data instead of a fixture's name: the child's and, when given, the school's (else school.json). */
export interface SimRecords {
  child: ChildFixture;
  school?: SchoolFixture;
}

export interface AccountEnv {
  /** The simulated today and Warsaw wall-clock time. */
  clock(): { today: string; time: string };
}

/** The expression inside a date token, or the literal date itself. */
function dateExpr(date: string | undefined): string {
  if (date === undefined) return 'today';
  const token = /^\{\{(.+)\}\}$/.exec(date);
  return token?.[1] ?? date;
}

export class ChildRecords {
  /** The child fixture this account started from (also picks its mailboxes). */
  readonly profile: string;
  readonly data: ChildFixture;
  readonly school: SchoolFixture;
  /** Static gateway bodies (school's, then the child's over them), in fixture form. */
  readonly resources = new Map<string, unknown>();
  readonly notices: SimNotice[];
  lucky: { number: number; day?: string } | undefined;
  /** Lessons moved elsewhere, as the timetable shows them on both slots (see moveLesson). */
  readonly moves: LessonMove[] = [];
  /** Lessons of a split class's other group (every one but the first of a split slot, and those added). */
  readonly otherGroup = new Set<number>();
  /**
   * The child's Timetables holds its own group's lessons alone, as a live school's does; the standing plan still lists
   * every group's (off: the timetable lists every group, as the fixtures were first written).
   */
  ownGroupOnly = false;
  /** Realizations tests added, in fixture form; see addRealization. */
  readonly addedRealizations: Record<string, unknown>[] = [];
  /** How many partial grades the first (and only) page holds; the rest count only in its `total`. */
  partialPageLimit = 100;
  /** The school year the portal answers, and the child's move up a class at its start (year.ts). */
  readonly year: SimYear;

  constructor(
    profile: string,
    protected readonly env: AccountEnv,
    records?: SimRecords,
  ) {
    this.profile = profile;
    // A world's own records (a generated school, test/helpers/worlds/) are served as the fixtures are: a copy of its own.
    this.school = records?.school === undefined ? loadFixture<SchoolFixture>('school') : structuredClone(records.school);
    this.data = records === undefined ? loadFixture<ChildFixture>(profile) : structuredClone(records.child);
    for (const [k, v] of Object.entries(this.school.resources)) this.resources.set(k, v);
    for (const [k, v] of Object.entries(this.data.resources)) this.resources.set(k, v);
    this.notices = this.school.notices;
    this.year = new SimYear(this, () => env.clock().today);
    for (const slots of Object.values(this.data.week)) {
      for (const slot of slots) for (const cell of slot.slice(1)) this.otherGroup.add(Number(cell.split('@')[0]));
    }
  }

  /** The lucky number from now on: n for the given day, or n for whatever day is current; null: the default draw. */
  setLuckyNumber(n: number | null, day?: string): void {
    this.lucky = n === null ? undefined : day === undefined ? { number: n } : { number: n, day };
  }

  /**
   * Moves the lesson of a slot to another day or hour, as live schools show it: the slot it leaves is
   * IsCanceled with the New* fields; the slot it goes to holds a substitution with Org* of the old slot. Of a split
   * slot it is the child's own group's lesson that moves, wherever the plan lists it.
   */
  moveLesson(move: LessonMove): void {
    this.moves.push(move);
  }

  /**
   * A lesson of a split class's other group in a slot of the weekly timetable (ISO weekday, lesson number):
   * listed in the timetable after the slot's own lessons, and, like every other group's lesson, never
   * among the child's attendance marks.
   */
  addGroupLesson(init: { weekday: number; lessonNo: number; lesson: number; classroom: number }): void {
    const slots = this.data.week[String(init.weekday)];
    const slot = slots?.[init.lessonNo];
    if (slot === undefined) throw new Error(`simulator: no slot ${init.lessonNo} on weekday ${init.weekday}`);
    slot.push(`${init.lesson}@${init.classroom}`);
    this.otherGroup.add(init.lesson);
  }

  addNotice(init: Partial<SimNotice> & Pick<SimNotice, 'Subject' | 'Content'>): SimNotice {
    const { today, time } = this.env.clock();
    const notice: SimNotice = {
      Id: `LID-NBOARD-NOTICE-${randomBytes(6).toString('hex')}`,
      StartDate: today,
      EndDate: '{{today+14}}',
      CreationDate: `${today} ${time}`,
      WasRead: false,
      ...init,
    };
    this.notices.push(notice);
    return notice;
  }
  /** Appends a record, in fixture form, to the list of a static resource such as 'Notes' or 'HomeWorks'. */
  addRecord<T extends Record<string, unknown>>(endpoint: string, record: T): T {
    this.listOf(endpoint).push(record);
    return record;
  }

  /** The simulated Warsaw time as the portal writes it in AddDate ("YYYY-MM-DD HH:MM:SS"). */
  stamp(): string {
    const { today, time } = this.env.clock();
    return `${today} ${time}`;
  }

  /** Announces a change to the class timetable now: one lesson cancelled or substituted (also a room change). */
  addPlanChange(init: Omit<ChangeFixture, 'Id' | 'AddDate'>): ChangeFixture {
    const change: ChangeFixture = { Id: Math.max(90_000, ...this.data.changes.map((c) => c.Id)) + 1, AddDate: this.stamp(), ...init };
    this.data.changes.push(change);
    return change;
  }

  /**
   * Puts a test on the class agenda now (a HomeWorks entry of category 1, Sprawdzian), in the second
   * lesson slot of the date (or at the lesson numbered, without an hour), set by the maths teacher unless told otherwise.
   */
  addTest(init: { date: string; content: string; subject?: number; teacher?: number; lessonNo?: number }): Record<string, unknown> {
    const { lessonNo, ...rest } = init;
    const at = lessonNo === undefined ? { time: '08:55' } : { lessonNo };
    return this.addAgendaEntry({ category: 1, ...at, ...rest, subject: init.subject ?? 5012, teacher: init.teacher ?? 162002 });
  }

  /**
   * Puts an entry on the class agenda now (HomeWorks), as a teacher files it: under a category of
   * HomeWorks/Categories (1 Sprawdzian, 2 Kartkówka, 3 Wycieczka, 4 Zebranie z rodzicami, 5 Inne), at
   * an hour (HH:MM; a lesson's start gives it that LessonNo) or at a lesson given by its number alone (no hour,
   * as some teachers enter it), for a subject or the whole class, by the teacher given or the class tutor.
   */
  addAgendaEntry(
    init: { date: string; content: string; category: number; subject?: number; teacher?: number } & ({ time: string } | { lessonNo: number }),
  ): Record<string, unknown> {
    const time = 'time' in init ? init.time : undefined;
    const lessonNo = 'lessonNo' in init ? init.lessonNo : this.school.bells.findIndex(([from]) => from === time);
    return this.addRecord('HomeWorks', {
      Id: this.nextId('HomeWorks'),
      Content: init.content,
      Date: init.date,
      Category: `@HomeWorks/Categories/${init.category}`,
      ...(lessonNo > 0 ? { LessonNo: String(lessonNo), TimeTo: time === undefined ? null : `${this.school.bells[lessonNo]![1]}:00` } : {}),
      TimeFrom: time === undefined ? null : `${time}:00`,
      CreatedBy: `@Users/${init.teacher ?? this.tutor()}`,
      Class: `@Classes/${this.data.account.classId}`,
      ...(init.subject === undefined ? {} : { Subject: `@Subjects/${init.subject}` }),
      AddDate: this.stamp(),
    });
  }

  /** A parent-teacher meeting (ParentTeacherConferences) on a day at an hour (HH:MM), set by the class tutor. */
  addMeeting(init: { date: string; time: string; topic: string }): Record<string, unknown> {
    return this.addRecord('ParentTeacherConferences', {
      Id: this.nextId('ParentTeacherConferences'),
      Name: 'Zebranie z rodzicami',
      Topic: init.topic,
      Teacher: `@Users/${this.tutor()}`,
      Date: init.date,
      Time: `${init.time}:00`,
    });
  }

  /** Real homework (HomeWorkAssignments) given today in a lesson of the timetable, due on a day. */
  addHomework(init: { lesson: number; due: string; topic: string; text: string }): Record<string, unknown> {
    const { today } = this.env.clock();
    return this.addRecord('HomeWorkAssignments', {
      Id: this.nextId('HomeWorkAssignments'),
      Teacher: `@Users/${this.data.lessons[String(init.lesson)]?.teacher ?? 0}`,
      Student: `@Users/${this.data.account.userId}`,
      Date: today,
      DueDate: init.due,
      Topic: init.topic,
      Text: init.text,
      Lesson: `@Lessons/${init.lesson}`,
      MustSendAttachFile: false,
      SendFilePossible: false,
      AddedFiles: 0,
      HomeworkAssigmentFiles: [],
      StudentsWhoRead: [],
      StudentsWhoMarkedAsDone: [],
    });
  }

  /**
   * Adds a lesson held (Realizations) in fixture form, raw as given, over defaults for today's first
   * lesson: bad data is allowed on purpose (an unknown lesson, an empty or huge topic). A record with
   * the Date and LessonNo of a generated one replaces it; any other joins the list.
   */
  addRealization(fields: Record<string, unknown>): Record<string, unknown> {
    const [lesson = '0', info] = Object.entries(this.data.lessons)[0] ?? [];
    const record = {
      Id: `t${9_000_000 + this.addedRealizations.length + 1}`,
      Lesson: `@Lessons/${lesson}`,
      LessonNo: '1',
      Date: '{{today}}',
      Topic: 'Lekcja dodana w teście',
      IsTrip: false,
      CountInStatistics: true,
      CountInRPN: true,
      AddedBy: `@Users/${info?.teacher ?? 0}`,
      ...fields,
    };
    this.addedRealizations.push(record);
    return record;
  }

  /**
   * A teacher edits a record of a static resource's list in place (a grade corrected, a test moved to
   * another day): the fields given replace its own, its Id stays. Throws when there is no such record.
   */
  editRecord(endpoint: string, id: number | string, fields: Record<string, unknown>): Record<string, unknown> {
    const record = this.listOf(endpoint).find((r) => String((r as { Id?: unknown }).Id) === String(id)) as Record<string, unknown> | undefined;
    if (record === undefined) throw new Error(`simulator: ${endpoint} has no record ${id}`);
    Object.assign(record, fields);
    return record;
  }

  /** A record leaves a static resource's list (a test cancelled, a grade deleted). */
  removeRecord(endpoint: string, id: number | string): void {
    const list = this.listOf(endpoint);
    const at = list.findIndex((r) => String((r as { Id?: unknown }).Id) === String(id));
    if (at < 0) throw new Error(`simulator: ${endpoint} has no record ${id}`);
    list.splice(at, 1);
  }

  /**
   * A free day announced now: for the whole school with a name (SchoolFreeDays), or for the child's
   * class with a type of Calendars/ClassFreeDays/Types. Dates are YYYY-MM-DD or fixture tokens.
   */
  addFreeDay(init: { from: string; to: string } & ({ name: string } | { type: number })): { Id: number } {
    const days = 'name' in init ? this.school.schoolFreeDays : this.school.classFreeDays;
    const Id = Math.max(0, ...days.map((d) => d.Id)) + 1;
    const common = { Id, DateFrom: init.from, DateTo: init.to, AddDate: this.stamp() };
    if ('name' in init) this.school.schoolFreeDays.push({ ...common, Name: init.name });
    else this.school.classFreeDays.push({ ...common, Class: this.data.account.classId, Type: init.type });
    return { Id };
  }

  /** The school changes an attendance mark's type (an absence excused: type 1 to 3). */
  setAttendanceType(id: number | string, type: number): void {
    const mark = this.data.attendance.find((m) => String(m.Id) === String(id));
    if (mark === undefined) throw new Error(`simulator: no attendance mark ${id}`);
    mark.Type = type;
  }

  /** A school trip (SchoolTrips, camelCase as the portal answers it) from one day and hour to another. */
  addTrip(init: { destination: string; route?: string; from: string; to: string }): Record<string, unknown> {
    const ids = this.listOf('SchoolTrips')
      .map((t) => Number((t as { id?: unknown }).id))
      .filter((n) => Number.isFinite(n));
    return this.addRecord('SchoolTrips', {
      id: Math.max(0, ...ids) + 1,
      destination: init.destination,
      route: init.route ?? '',
      locomotion: 'autokar',
      termFrom: init.from,
      termTo: init.to,
      creatorName: 'Anna',
      creatorLastName: 'Nowak',
      coordinatorName: 'Anna Nowak',
    });
  }

  /**
   * A teacher enters a partial grade now (the newer grading, spec 4.5): a copy of the child's newest
   * one with a fresh gradeId and the given mark, dated today. Throws when the child has none to copy.
   */
  addPartialGrade(mark: string): Record<string, unknown> {
    const model = this.data.partialGrades.at(-1);
    if (model === undefined) throw new Error('simulator: the child has no partial grades to copy');
    const grade = {
      ...model,
      gradeId: `LID-DGS-GRADE-${randomBytes(8).toString('hex')}`,
      scaleValue: { id: 9, value: mark },
      date: '{{today}}',
      addDate: this.stamp(),
    };
    this.data.partialGrades.push(grade);
    return grade;
  }

  /**
   * A teacher enters a classic descriptive grade now (DescriptiveGrades, spec 2.4): the mark in Map (and
   * RealGradeValue), its range on the scale in Grade (never the mark), a skill of the school's list, and a comment in
   * DescriptiveGrades/Comments that names the grade back. By default a pupil's form-period class: subject 5022
   * ("Zajęcia z wychowawcą"), skill 1201, its tutor.
   */
  addDescriptiveGrade(init: { mark: string; comment?: string; subject?: number; skill?: number; teacher?: number }): Record<string, unknown> {
    const { today, time } = this.env.clock();
    const id = this.nextId('DescriptiveGrades');
    const value = Number.parseInt(init.mark, 10);
    const teacher = `@Users/${init.teacher ?? this.tutor()}`;
    const comments = init.comment === undefined ? [] : [this.descriptiveComment(id, teacher, init.comment)];
    return this.addRecord('DescriptiveGrades', {
      Id: id,
      Subject: `@Subjects/${init.subject ?? 5022}`,
      Student: `@Users/${this.data.account.userId}`,
      Skill: `@DescriptiveGrades/Skills/${init.skill ?? 1201}`,
      AddedBy: teacher,
      Grade: Number.isNaN(value) ? null : Math.max(1, Math.ceil(value / 2)),
      Map: init.mark,
      RealGradeValue: init.mark,
      Date: today,
      AddDate: `${today} ${time}`,
      Semester: `{{sem(${today})}}`,
      Comments: comments,
    });
  }

  private descriptiveComment(gradeId: number, addedBy: string, text: string): string {
    const id = this.nextId('DescriptiveGrades/Comments');
    this.addRecord('DescriptiveGrades/Comments', { Id: id, Text: text, AddedBy: addedBy, Grade: `@DescriptiveGrades/${gradeId}` });
    return `@DescriptiveGrades/Comments/${id}`;
  }

  /** The next free numeric Id of a static resource's list. */
  nextId(endpoint: string): number {
    const ids = this.listOf(endpoint).map((r) => Number((r as { Id?: unknown }).Id));
    return Math.max(0, ...ids.filter((n) => Number.isFinite(n))) + 1;
  }

  addGrade(init: GradeInit): Record<string, unknown> {
    const { today, time } = this.env.clock();
    const id = this.nextId('Grades');
    const lesson = init.lesson ?? this.lessonFor(init.subject);
    const grade: Record<string, unknown> = {
      Id: id,
      Lesson: `@Lessons/${lesson}`,
      Subject: `@Subjects/${init.subject}`,
      Student: `@Users/${this.data.account.userId}`,
      Category: `@Grades/Categories/${init.category}`,
      AddedBy: `@Users/${init.teacher ?? this.data.lessons[String(lesson)]?.teacher ?? 0}`,
      Grade: init.grade,
      Date: init.date ?? today,
      AddDate: init.addDate ?? `${today} ${time}`,
      // The semester of the grade's own day: the day it was entered on, not a today that moves on.
      Semester: `{{sem(${dateExpr(init.date ?? today)})}}`,
      IsConstituent: init.period === undefined,
      IsSemester: init.period === 'semester',
      IsSemesterProposition: init.period === 'semester_proposal',
      IsFinal: init.period === 'final',
      IsFinalProposition: init.period === 'final_proposal',
    };
    if (init.improves !== undefined) grade.Improvement = `@Grades/${init.improves}`;
    // Written with its comment in the same moment: the comment in Grades/Comments, the grade naming its id.
    if (init.comment !== undefined) grade.Comments = [this.gradeComment(id, String(grade.AddedBy), init.comment)];
    return this.addRecord('Grades', grade);
  }

  /** A teacher comments a grade later (an old one too): a new Grades/Comments record, and the grade names it (an edit of the grade). */
  addGradeComment(gradeId: number, text: string): void {
    const grade = this.listOf('Grades').find((g) => String((g as { Id?: unknown }).Id) === String(gradeId)) as Record<string, unknown> | undefined;
    if (grade === undefined) throw new Error(`simulator: Grades has no record ${gradeId}`);
    const named = Array.isArray(grade.Comments) ? (grade.Comments as unknown[]) : [];
    this.editRecord('Grades', gradeId, { Comments: [...named, this.gradeComment(gradeId, String(grade.AddedBy), text)] });
  }

  /** A comment of a grade in Grades/Comments; its reference as the grade names it. */
  private gradeComment(gradeId: number, addedBy: string, text: string): string {
    const id = this.nextId('Grades/Comments');
    this.addRecord('Grades/Comments', { Id: id, AddedBy: addedBy, Grade: `@Grades/${gradeId}`, Text: text });
    return `@Grades/Comments/${id}`;
  }

  /** The class tutor's user id. */
  private tutor(): number {
    return this.school.classes.find((c) => c.Id === this.data.account.classId)?.ClassTutor ?? 0;
  }

  private lessonFor(subject: number): number {
    const found = Object.entries(this.data.lessons).find(([, l]) => l.subject === subject);
    return Number(found?.[0] ?? 0);
  }

  private listOf(endpoint: string): unknown[] {
    const body = this.resources.get(endpoint);
    if (body && typeof body === 'object') {
      const list = Object.values(body).find((v) => Array.isArray(v));
      if (Array.isArray(list)) return list as unknown[];
    }
    throw new Error(`simulator: ${endpoint} has no list to add to`);
  }
}
