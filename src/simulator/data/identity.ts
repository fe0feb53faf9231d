// Who is logged in and where: Me, Users, Classes, Schools, Units, UserProfile and the newer Auth/*
// identity endpoints. Me.Account is the parent (the login owner), Me.User the child.
import { createHash } from 'node:crypto';
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { ref } from '../expand.js';
import type { DataContext } from './context.js';
import { expandIn } from './context.js';
import { buildSchoolDays } from './school-days.js';
import { kindergartenUnit } from '../kindergarten.js';

function uuid(text: string): string {
  const h = createHash('md5').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Me; a kindergarten child is in a group, not a class: its Me names none (live-notes 58). */
export function me(ctx: DataContext): DataResult {
  const a = ctx.account.data.account;
  return answers.ok({
    Me: {
      Account: {
        Id: a.accountId,
        UserId: a.userId,
        FirstName: a.parent.firstName,
        LastName: a.parent.lastName,
        Email: a.parent.email,
        GroupId: 5,
        IsActive: true,
        Login: ctx.account.login,
        IsPremium: false,
        IsPremiumDemo: false,
        ExpiredPremiumDate: null,
      },
      Refresh: 900,
      User: {
        FirstName: a.child.firstName,
        LastName: a.child.lastName,
        ...(ctx.account.kindergarten?.identifierIn === 'me' ? { Identifier: ctx.account.childLid } : {}),
      },
      ...(ctx.account.kindergarten ? {} : { Class: ref(ctx, 'Classes', a.classId) }),
    },
    Resources: {
      'Me/PeriodicGradeAverages': { Url: `${ctx.api}/Me/PeriodicGradeAverages` },
      'Me/BehaviourDescriptiveGrades': { Url: `${ctx.api}/Me/BehaviourDescriptiveGrades` },
    },
    Url: `${ctx.api}/Me`,
  });
}

export function users(ctx: DataContext): DataResult {
  return answers.ok({ Users: expandIn(ctx, ctx.account.school.users) });
}

/**
 * Users/{Me.Account.UserId} is the child (a kindergarten child without a class, in the kindergarten's unit); a
 * teacher id gives the teacher; Users/{Me.Account.Id} is 404.
 */
export function user(ctx: DataContext): DataResult {
  const a = ctx.account.data.account;
  if (ctx.params.id === String(a.userId)) {
    return answers.ok({
      User: {
        Id: a.userId,
        AccountId: ctx.account.childLid,
        AccountNumericIdentifier: a.userId + 700_000,
        FirstName: a.child.firstName,
        LastName: a.child.lastName,
        ...(ctx.account.kindergarten ? {} : { Class: { ...ref(ctx, 'Classes', a.classId), UUID: uuid(`class:${a.classId}`) } }),
        Unit: ref(ctx, 'Units', ctx.account.unitId),
        ClassRegisterNumber: a.registerNumber,
        IsEmployee: false,
        GroupId: 8,
      },
    });
  }
  const staff = ctx.account.school.users.find((u) => String(u.Id) === ctx.params.id);
  return staff ? answers.ok({ User: expandIn(ctx, staff) }) : answers.notFound();
}

function classBody(ctx: DataContext, id: number): Record<string, unknown> | undefined {
  const c = ctx.account.school.classes.find((k) => k.Id === id);
  if (!c) return undefined;
  const year = buildSchoolDays(ctx).year;
  return {
    Id: c.Id,
    Number: c.Number,
    Symbol: c.Symbol,
    BeginSchoolYear: year.start,
    EndFirstSemester: year.semester1End,
    EndSchoolYear: year.end,
    Unit: ref(ctx, 'Units', c.Unit),
    ClassTutor: ref(ctx, 'Users', c.ClassTutor),
    ClassTutors: [ref(ctx, 'Users', c.ClassTutor)],
    UUID: uuid(`class:${c.Id}`),
  };
}

/** Classes answers the child's own class; Classes/<id> any class of the school. */
export function classes(ctx: DataContext): DataResult {
  const id = ctx.params.id === undefined ? ctx.account.data.account.classId : Number(ctx.params.id);
  const body = classBody(ctx, id);
  return body ? answers.ok({ Class: body }) : answers.notFound();
}

/**
 * The school's record as live schools answer it (live-notes 55-57): every field in capitals (Town, Street, ...), the
 * head teacher, the secretariat's e-mail and phone, and the bells in LessonsRange.
 */
export function schools(ctx: DataContext): DataResult {
  const school = expandIn<Record<string, unknown>>(ctx, ctx.account.school.school);
  if (ctx.params.id !== undefined && ctx.params.id !== String(school.Id)) return answers.notFound();
  return answers.ok({ School: { ...school, LessonsRange: lessonsRange(ctx.account.school.bells) } });
}

/**
 * A bell schedule as LessonsRange (live-notes 56): position N is lesson N, `{From, To, RawFrom, RawTo}` (the raw
 * ones seconds from midnight); a school without a lesson 0 leaves position 0 a placeholder at midnight.
 */
function lessonsRange(bells: readonly ([string, string] | null)[]): Record<string, unknown>[] {
  return bells.map((hours) => {
    const [from, to] = hours ?? ['00:00', '00:00'];
    return { From: from, To: to, RawFrom: seconds(from), RawTo: seconds(to) };
  });
}

/** The unit with its bell schedule; LessonsRange comes from the same bells the timetable uses. */
export function units(ctx: DataContext): DataResult {
  const bells = lessonsRange(ctx.account.school.bells);
  const unit: Record<string, unknown> = { ...expandIn<Record<string, unknown>>(ctx, ctx.account.school.unit), LessonsRange: bells };
  // A school complex (live-notes 10) lists the other school's unit first, with settings of its own; a kindergarten
  // child's account lists the school's and its kindergarten's, which gives no grades (live-notes 58 expects so).
  const all = ctx.account.schoolComplex ? [lyceum(), unit] : ctx.account.kindergarten ? [unit, kindergartenUnit()] : [unit];
  if (ctx.params.id !== undefined) {
    const one = all.find((u) => ctx.params.id === String(u.Id));
    return one ? answers.ok({ Unit: one }) : answers.notFound();
  }
  return answers.ok({ Units: all });
}

/** The other unit of a school complex: a lyceum with only ordinary grades and its own bells (no lesson 0). */
function lyceum(): Record<string, unknown> {
  const bells: ([string, string] | null)[] = [
    null,
    ['07:10', '07:55'],
    ['08:00', '08:45'],
    ['08:50', '09:35'],
    ['09:45', '10:30'],
    ['10:45', '11:30'],
  ];
  return {
    Id: 2,
    Name: 'Liceum Ogólnokształcące nr 3',
    ShortName: 'LO3',
    Type: 'LO',
    BehaviourType: 'classic',
    GradesSettings: {
      StandardGradesEnabled: true,
      PointGradesEnabled: false,
      DescriptiveGradesEnabled: false,
      ForbidAddGradesWithoutCategory: true,
      AllowClassTutorEditGrades: false,
    },
    LessonsRange: lessonsRange(bells),
  };
}

function seconds(hhmm: string): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 3600 + m * 60;
}

export function userProfile(ctx: DataContext): DataResult {
  const a = ctx.account.data.account;
  const c = ctx.account.school.classes.find((k) => k.Id === a.classId);
  const school = ctx.account.school.school;
  return answers.ok({
    UserProfile: { ClassNumber: c?.Number ?? null, AccountType: 'parent', Town: school.Town, State: school.State, UnitType: 'SP' },
  });
}

export function tokenInfo(ctx: DataContext): DataResult {
  return answers.ok({
    SchoolId: ctx.account.school.schoolId,
    UserIdentifier: ctx.account.parentLid,
    UserType: 'parent',
    SchoolNodeName: String(ctx.account.school.school.Name),
    Scopes: ['mydata', 'grades', 'attendances', 'timetables', 'calendars', 'notices', 'descriptive-grading'],
  });
}

/** Auth/UserInfo/<lid> for the parent's LID (from TokenInfo) or the child's own LID; other LIDs 404. */
export function userInfo(ctx: DataContext): DataResult {
  const { account } = ctx;
  const a = account.data.account;
  const lid = ctx.params.lid;
  if (lid !== account.parentLid && lid !== account.childLid) return answers.notFound();
  const parent = lid === account.parentLid;
  const inClass = account.kindergarten === undefined;
  return answers.ok({
    UserIdentifier: lid,
    UserNumericIdentifier: parent ? a.accountId : a.userId,
    AccountNumericIdentifier: parent ? a.accountId + 900_000 : a.userId + 700_000,
    SchoolId: account.school.schoolId,
    UserType: parent ? 'parent' : 'student',
    UserSchoolClassId: inClass ? a.classId : null,
    IdentifierOfStudentAssignedWithUser: parent ? account.childLid : null,
    IdentifierOfClassOfStudentAssignedWithUser: inClass ? `LID-CLASS-${uuid(`class:${a.classId}`)}` : null,
    UserState: 'active',
    KindergartenGraduationYear: null,
    Login: parent ? account.login : `${account.login.replace(/u$/, '')}`,
    Gender: parent ? null : a.child.gender,
  });
}

export function systemData(ctx: DataContext): DataResult {
  return answers.ok({ Date: ctx.today, Time: ctx.clock });
}
