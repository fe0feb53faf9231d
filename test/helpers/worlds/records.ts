// A generated world (world.ts) as the simulator serves it: each child's records in the fixtures' own form, laid over
// the fixture of its kind (records the simulator takes as data, `SimAccountInit.records`), and what the school does to
// the account through the simulator's own switches (a module refused, a list answered empty, a lesson moved), then the
// news a teacher enters between two passes. Dates are written out from the world's day, so the records say exactly
// what the world says whatever the simulator's tokens would make of them.
import type { PortalSimulator, SimAccount, SimAccountInit, SimFamilyInit, ChildFixture, SchoolFixture } from '../../../src/simulator/index.js';
import { loadFixture } from '../../../src/simulator/fixtures.js';
import { addDays, addWeekdays, isoWeekday, mondayOf } from '../../../src/simulator/dates.js';
import type { AgendaSpec, ChangeSpec, ChildKind, ChildWorld, GradeSpec, OtherGradeSpec, World } from './world.js';
import { warsaw } from '../reference/dates.js';

const BASE: Record<ChildKind, string> = { pupil: 'ania', 'first-grader': 'janek', kindergarten: 'zosia' };

/** The answer of an endpoint with an empty list, in its root key's form. */
const EMPTY: Record<string, unknown> = {
  Grades: { Grades: [] },
  Notes: { Notes: [] },
  HomeWorks: { HomeWorks: [] },
  HomeWorkAssignments: { HomeWorkAssignments: [] },
  Attendances: { Attendances: [] },
  ParentTeacherConferences: { ParentTeacherConferences: [] },
  SchoolTrips: { Data: [] },
  EbiblioLendings: { lastSynchronizationTimestamp: '{{epoch-3600}}', lendings: [] },
};

/** One child of a world as the simulator takes it: its login, its records and what the world does to its account. */
export interface ServedChild {
  init: SimAccountInit;
  world: ChildWorld;
}

/** A world's children, logins unique to the world (`tag`), and the family login that lists them when the world has one. */
export function servedWorld(world: World, tag: string): { children: ServedChild[]; family: SimFamilyInit | undefined } {
  const children = world.children.map((child, i) => ({
    world: child,
    init: {
      login: `${tag}${i}u`,
      password: `pw-${tag}-${i}`,
      profile: BASE[child.kind],
      records: records(world, child),
    },
  }));
  const family = world.family ? { email: `rodzina-${tag}@example.com`, password: `pw-${tag}`, logins: children.map((c) => c.init.login) } : undefined;
  return { children, family };
}

/** Adds the world's accounts (and its family login) to a running simulator, with what the school does to each. */
export function serve(sim: PortalSimulator, world: World, tag: string): { children: ServedChild[]; family: SimFamilyInit | undefined } {
  const served = servedWorld(world, tag);
  for (const { init, world: child } of served.children) {
    const account = sim.addAccount(init);
    // As in a real register, nothing the school entered moves by itself as a walk's days pass (SimAccount.recordsHeldOn).
    account.recordsHeldOn = world.date;
    for (const refused of child.refused) account.setModuleStatus(refused.endpoint, refused.status);
    for (const endpoint of child.empty) account.setResource(endpoint, EMPTY[endpoint]);
    if (child.kind === 'pupil') pupilRecords(sim, account, world, child);
    if (child.luckyEmpty) account.setLuckyForm('null');
    account.ownGroupOnly = child.ownGroupOnly;
    for (const m of child.messages) {
      const sent = warsaw(Date.parse(`${world.date}T${world.time}:00+01:00`) - m.hoursAgo * 3_600_000);
      const body = `<p>${m.subject || 'Dzień dobry'}</p>`;
      sim.messaging.addMessage(init.login, { topic: m.subject, body, mailbox: m.mailbox, read: m.read, sent: `${sent.date} ${sent.time}:00` });
    }
  }
  if (served.family) sim.families.add(served.family);
  return served;
}

/**
 * What the school does to a pupil's account beyond its records: lessons moved, the split slots' groups (the child's
 * own listed second), the world's absence marks, each on a lesson of a school day (a mark on a day off is no lesson missed).
 */
function pupilRecords(sim: PortalSimulator, account: SimAccount, world: World, child: ChildWorld): void {
  for (const change of child.changes) if (change.kind === 'moved') moveLesson(sim, account, world.date, change);
  for (const [other, own] of groupsOf(account.data, child)) {
    account.otherGroup.delete(own);
    account.otherGroup.add(other);
  }
  const days = sim.schoolDays(account.login);
  child.absences.forEach((a, i) => {
    const where = slotDay(account.data, world.date, -a.daysAgo, a.slot);
    if (where && days.isSchoolDay(where.date))
      account.data.attendance.push({
        Id: child.stringIds ? `t${4_200_000 + i}` : 4_200_000 + i,
        Date: where.date,
        LessonNo: where.lessonNo,
        Type: a.excused ? 3 : 1,
      });
  });
}

/** What a teacher enters between the two passes. */
export function enterNews(sim: PortalSimulator, world: World, served: ServedChild[]): void {
  for (const { init, world: child } of served) {
    const account = sim.account(init.login);
    for (const news of child.news) {
      if (news.kind === 'notice') account.addNotice({ Subject: news.subject, Content: `${news.subject}: szczegóły u wychowawcy.` });
      if (child.kind !== 'pupil') continue;
      const plan = planOf(account.data);
      // Entered now: the simulator's clock is the stamp.
      const entered = { AddDate: account.stamp() };
      if (news.kind === 'grade')
        account.addRecord('Grades', {
          ...gradeRecord(account.data, account.school, plan, news.grade, world.date, account.nextId('Grades'), undefined),
          ...entered,
        });
      // A teacher enters nothing in the year's register past its last day: the year's calendar, which tells the bridge
      // that the agenda changed, lists the year's days alone (seed 220: a test entered for the Saturday after it).
      const entry =
        news.kind === 'agenda' ? agendaRecord(account.data, account.school, plan, news.entry, world.date, account.nextId('HomeWorks')) : undefined;
      if (entry !== undefined && String(entry.Date).slice(0, 10) <= sim.schoolDays(init.login).year.end)
        account.addRecord('HomeWorks', { ...entry, ...entered });
      if (news.kind !== 'change') continue;
      const record = changeRecord(account.data, account.school, news.change, world.date, 0);
      if (record !== undefined) {
        const { Id: _id, AddDate: _added, ...init } = record;
        account.addPlanChange(init);
      }
    }
  }
}

/** The child's records: the fixture of its kind with the world's grades, plan changes, agenda, extra classes and free days. */
function records(world: World, child: ChildWorld): { child: ChildFixture; school: SchoolFixture } {
  const school = loadFixture<SchoolFixture>('school');
  const data = loadFixture<ChildFixture>(BASE[child.kind]);
  data.account.child.firstName = child.firstName;
  for (const place of child.nameless) {
    const user = school.users[place % school.users.length];
    if (user) user.FirstName = null;
  }
  const free = child.freeDays.map((f, i) => ({
    Id: 500 + i,
    Name: f.name,
    DateFrom: addDays(world.date, f.days),
    DateTo: addDays(world.date, f.days + f.length - 1),
    AddDate: `${addDays(world.date, -7)} 10:00:00`,
  }));
  school.schoolFreeDays.push(...free);
  if (child.kind !== 'pupil') return { child: data, school };
  if (child.movedClass !== null) moveClass(data, school, child.movedClass, world.date);
  const plan = planOf(data);
  const grades = list(data, 'Grades');
  grades.splice(0, grades.length);
  child.grades.forEach((g, i) =>
    grades.push(gradeRecord(data, school, plan, g, world.date, 300_001 + i, i > 0 && g.corrects ? 300_000 + i : undefined)),
  );
  child.otherGrades.forEach((g, i) => otherGrade(data, plan, g, world.date, i));
  data.changes = child.changes.flatMap((c, i) => (c.kind === 'moved' ? [] : [changeRecord(data, school, c, world.date, 95_000 + i) ?? []].flat()));
  const agenda = list(data, 'HomeWorks');
  agenda.splice(0, agenda.length);
  child.agenda.forEach((a, i) => agenda.push(agendaRecord(data, school, plan, a, world.date, 7_000 + i)));
  data.extraClasses = child.extra.map((x) => ({
    weekday: x.weekday,
    startTime: x.start,
    endTime: `${String(Number(x.start.slice(0, 2)) + 1).padStart(2, '0')}${x.start.slice(2)}`,
    title: x.title,
    teacher: 162002,
    classroom: { symbol: '22' },
    ...(x.cancelledNextWeek ? { cancelled: [addDays(mondayOf(world.date), 7 + x.weekday - 1)] } : {}),
  }));
  if (child.lessonZero !== null) {
    const slots = data.week[String(child.lessonZero)] ?? [];
    const first = slots.find((cells) => cells.length > 0)?.[0];
    if (first !== undefined && slots[0]?.length === 0) slots[0] = [first];
  }
  splitGroups(data, school, child);
  if (child.stringIds) for (const mark of data.attendance) mark.Id = `t${String(mark.Id).replace(/^t/, '')}`;
  return { child: data, school };
}

/**
 * Moves the child to another class of its year (world.ts `movedClass`): a new class with its own id, symbol and tutor,
 * the old class left in the school with its free days (the fixture's, and a trip of its own) and the new one given a
 * trip of its own. Both days are whole ones (no lesson numbers).
 */
function moveClass(data: ChildFixture, school: SchoolFixture, moved: NonNullable<ChildWorld['movedClass']>, today: string): void {
  const old = school.classes.find((c) => c.Id === data.account.classId);
  if (old === undefined) return;
  const tutors = new Set(school.classes.map((c) => c.ClassTutor));
  const tutor = school.users.find((u) => u.IsEmployee === true && !tutors.has(Number(u.Id)));
  const id = old.Id + 50;
  school.classes.push({ ...old, Id: id, Symbol: old.Symbol === 'a' ? 'd' : 'a', ClassTutor: Number(tutor?.Id ?? old.ClassTutor) });
  data.account.classId = id;
  const trip = (Id: number, Class: number, days: number) => {
    const date = addDays(today, days);
    return { Id, Class, Type: 3, DateFrom: date, DateTo: date, AddDate: `${addDays(today, -5)} 09:00:00` };
  };
  school.classFreeDays.push(trip(880, old.Id, moved.oldClassTrip), trip(881, id, moved.newClassTrip));
}

/** The lesson ids of the other group a split slot (world.ts `groups`) is given, each with the child's own lesson there. */
function groupsOf(data: ChildFixture, child: ChildWorld): [number, number][] {
  return child.groups.flatMap((g, i) => {
    const cells = data.week[String(g.weekday)]?.[g.slot] ?? [];
    const other = 8_490 + i;
    return cells[0]?.startsWith(`${other}@`) && cells[1] !== undefined ? [[other, Number(cells[1].split('@')[0])] as [number, number]] : [];
  });
}

/**
 * Splits the world's slots into groups: the other group's lesson of the same subject, with another teacher and room,
 * listed before the child's own in the standing plan (the first entry of the subject is not the child's). A plan change
 * in such a slot is to one group's lesson (OrgLesson), as the school's is.
 */
function splitGroups(data: ChildFixture, school: SchoolFixture, child: ChildWorld): void {
  const teachers = school.users.filter((u) => u.IsEmployee === true).map((u) => Number(u.Id));
  child.groups.forEach((g, i) => {
    const cells = data.week[String(g.weekday)]?.[g.slot];
    const [lesson = '', room] = cells?.[0]?.split('@') ?? [];
    const own = data.lessons[lesson];
    if (cells === undefined || own === undefined || cells.some((c) => c.startsWith('849'))) return;
    const other = 8_490 + i;
    data.lessons[String(other)] = { subject: own.subject, teacher: teachers.find((t) => t !== own.teacher) ?? own.teacher };
    const otherRoom = school.classrooms.find((c) => String(c.Id) !== room)?.Id ?? room;
    cells.unshift(`${other}@${String(otherRoom)}`);
    // A change the world makes in this slot is to either group: the child's own (its lesson, named, no longer the
    // slot's first) where the change's id is odd, else the other group's, as a class's list of changes holds both.
    for (const change of data.changes)
      if (isoWeekday(change.OrgDate) === g.weekday && change.OrgLessonNo === g.slot && change.Id % 2 === 1) change.OrgLesson = Number(lesson);
  });
}

/** The plan's subjects and their lessons (by subject id), in the plan's order. */
interface Plan {
  subjects: number[];
  lessonOf(subject: number): number;
}

function planOf(data: ChildFixture): Plan {
  const lessons = Object.entries(data.lessons);
  const subjects = [...new Set(lessons.map(([, l]) => l.subject))];
  return { subjects, lessonOf: (subject) => Number(lessons.find(([, l]) => l.subject === subject)?.[0] ?? 0) };
}

const at = <T>(items: readonly T[], place: number): T => items[place % items.length] as T;

function list(data: ChildFixture, endpoint: string): Record<string, unknown>[] {
  const body = data.resources[endpoint] as Record<string, Record<string, unknown>[]>;
  return Object.values(body)[0] ?? [];
}

/** A category the school named itself, added to its lookup once; its id. */
function ownCategory(school: SchoolFixture, endpoint: string, name: string, fields: Record<string, unknown>): number {
  const categories = (school.resources[endpoint] as { Categories: { Id: number; Name: string }[] }).Categories;
  const known = categories.find((c) => c.Name === name && c.Id >= 900);
  if (known) return known.Id;
  const id = 900 + categories.length;
  categories.push({ Id: id, Name: name, ...fields });
  return id;
}

function gradeRecord(
  data: ChildFixture,
  school: SchoolFixture,
  plan: Plan,
  g: GradeSpec,
  today: string,
  id: number,
  corrects: number | undefined,
): Record<string, unknown> {
  const subject = at(plan.subjects, g.subject);
  const lesson = plan.lessonOf(subject);
  const categories = (school.resources['Grades/Categories'] as { Categories: { Id: number }[] }).Categories;
  const category =
    typeof g.category === 'number'
      ? at(categories, g.category).Id
      : ownCategory(school, 'Grades/Categories', g.category.own, {
          Weight: g.category.weight,
          CountToTheAverage: g.category.weight !== null,
          Color: '@Colors/1',
        });
  const date = addDays(today, -g.daysAgo);
  const record: Record<string, unknown> = {
    Id: id,
    Lesson: `@Lessons/${lesson}`,
    Subject: `@Subjects/${subject}`,
    Student: `@Users/${data.account.userId}`,
    Category: `@Grades/Categories/${category}`,
    AddedBy: `@Users/${data.lessons[String(lesson)]?.teacher ?? 0}`,
    Grade: g.value,
    Date: date,
    AddDate: `${date} 06:00:00`,
    Semester: `{{sem(${date})}}`,
    IsConstituent: g.period === 'ordinary',
    IsSemester: g.period === 'semester',
    IsSemesterProposition: g.period === 'semester_proposal',
    IsFinal: g.period === 'final',
    IsFinalProposition: g.period === 'final_proposal',
  };
  if (corrects !== undefined) record.Improvement = `@Grades/${corrects}`;
  if (g.comment !== null) {
    const comments = list(data, 'Grades/Comments');
    const commentId = 80_000 + id;
    comments.push({ Id: commentId, AddedBy: record.AddedBy, Grade: `@Grades/${id}`, Text: g.comment });
    record.Comments = [`@Grades/Comments/${commentId}`];
  }
  return record;
}

function otherGrade(data: ChildFixture, plan: Plan, g: OtherGradeSpec, today: string, i: number): void {
  const subject = at(plan.subjects, g.subject);
  const lesson = plan.lessonOf(subject);
  const date = addDays(today, -g.daysAgo);
  const common = {
    Subject: `@Subjects/${subject}`,
    Student: `@Users/${data.account.userId}`,
    AddedBy: `@Users/${data.lessons[String(lesson)]?.teacher ?? 0}`,
    Date: date,
    AddDate: `${date} 06:00:00`,
    Semester: `{{sem(${date})}}`,
  };
  if (g.kind === 'point') {
    const value = Number.parseFloat(g.value);
    list(data, 'PointGrades').push({
      Id: 88_000 + i,
      Grade: g.value,
      GradeValue: Number.isNaN(value) ? 0 : value,
      Category: '@PointGrades/Categories/401',
      ...common,
    });
  } else
    list(data, 'BaseTextGrades').push({
      Id: 99_000 + i,
      Grade: g.value,
      Lesson: `@Lessons/${lesson}`,
      Category: '@TextGrades/Categories/501',
      ShowInGradesView: true,
      ...common,
    });
}

/** The day `weekday` school days from today (the simulator's `{{weekday+N}}`) and the plan's lesson numbers that day. */
function slotDay(data: ChildFixture, today: string, weekday: number, slot: number): { date: string; lessonNo: number } | undefined {
  const date = addWeekdays(today, weekday);
  const slots = data.week[String(isoWeekday(date))] ?? [];
  const held = slots.flatMap((cells, no) => (cells.length > 0 ? [no] : []));
  return held.length === 0 ? undefined : { date, lessonNo: at(held, slot) };
}

function changeRecord(data: ChildFixture, school: SchoolFixture, c: Exclude<ChangeSpec, { kind: 'moved' }>, today: string, id: number) {
  const where = slotDay(data, today, c.weekday, c.slot);
  if (where === undefined) return undefined;
  const common = { Id: id, OrgDate: where.date, OrgLessonNo: where.lessonNo, AddDate: `${addDays(today, -1)} 12:00:00` };
  if (c.kind === 'cancelled') return { ...common, kind: 'cancelled' as const };
  const subjects = (school.resources.Subjects as { Subjects: { Id: number }[] }).Subjects;
  const teachers = school.users.filter((u) => u.IsEmployee === true);
  return {
    ...common,
    kind: 'substitution' as const,
    ...(c.subject === null ? {} : { Subject: at(subjects, c.subject).Id }),
    ...(c.teacher === null ? {} : { Teacher: Number(at(teachers, c.teacher).Id) }),
    ...(c.room === null ? {} : { Classroom: c.room === 'none' ? null : at(school.classrooms, c.room).Id }),
  };
}

/**
 * A lesson moved to another slot of a school day (a school moves none onto a day it keeps free; nor a lesson twice, nor
 * two of the class's lessons into one slot, nor one into an hour whose own lesson stays: a slot holds one lesson of the
 * class).
 */
function moveLesson(sim: PortalSimulator, account: SimAccount, today: string, c: Extract<ChangeSpec, { kind: 'moved' }>): void {
  const from = slotDay(account.data, today, c.weekday, c.slot);
  if (from === undefined) return;
  const to = { date: addWeekdays(today, c.toWeekday), lessonNo: c.toSlot };
  if ((to.date === from.date && to.lessonNo === from.lessonNo) || !sim.schoolDays(account.login).isSchoolDay(to.date)) return;
  const same = (a: { date: string; lessonNo: number }, b: { date: string; lessonNo: number }): boolean =>
    a.date === b.date && a.lessonNo === b.lessonNo;
  if (account.moves.some((m) => same(m.to, to) || same(m.from, from))) return;
  if ((account.data.week[String(isoWeekday(to.date))]?.[to.lessonNo]?.length ?? 0) > 0) return;
  account.moveLesson({ from, to });
}

/** An agenda entry's LessonNo, TimeFrom and TimeTo as the world's `end` has them (a late end: a trip from 07:45 to 16:00). */
function timesOf(a: AgendaSpec, bell: readonly string[] | undefined, slot: string): Record<string, unknown> {
  const to = { lesson: bell === undefined ? undefined : `${bell[1]}:00`, late: '16:00:00', absent: undefined, null: null }[a.end];
  const end = to === undefined ? {} : { TimeTo: to };
  if (bell === undefined) return a.end === 'late' ? { TimeFrom: '07:45:00', ...end } : { TimeFrom: null };
  return { LessonNo: slot, TimeFrom: `${bell[0]}:00`, ...end };
}

function agendaRecord(data: ChildFixture, school: SchoolFixture, plan: Plan, a: AgendaSpec, today: string, id: number): Record<string, unknown> {
  const categories = (school.resources['HomeWorks/Categories'] as { Categories: { Id: number }[] }).Categories;
  const category =
    typeof a.category === 'number'
      ? at(categories, a.category).Id
      : ownCategory(school, 'HomeWorks/Categories', a.category.own, { Color: '@Colors/1' });
  const bell = a.slot === null ? undefined : school.bells[a.slot];
  return {
    ...timesOf(a, bell, String(a.slot)),
    Id: id,
    Content: a.content,
    Date: addDays(today, a.days),
    Category: `@HomeWorks/Categories/${category}`,
    CreatedBy: '@Users/162001',
    Class: `@Classes/${data.account.classId}`,
    ...(a.subject === null ? {} : { Subject: `@Subjects/${at(plan.subjects, a.subject)}` }),
    AddDate: `${addDays(today, Math.min(0, a.days) - 1)} 12:00:00`,
  };
}
