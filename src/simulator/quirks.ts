// Gateway modules that answer with a fixed error for a parent account (spec 4.7, 7.1 and the tables of
// part 2): being listed in the index does not make a module readable.
import { answers } from './answers.js';
import type { DataResult } from './answers.js';

type Quirk = (api: string) => DataResult;

const scopes: Quirk = () => answers.insufficientScopes();
const forbidden: Quirk = () => answers.forbidden();
const notFound: Quirk = () => answers.notFound();
const notAllowed: Quirk = () => answers.methodNotAllowed();

function listing(...subs: string[]): Quirk {
  return (api) => answers.methodNotAllowed(Object.fromEntries(subs.map((s) => [s, { Url: `${api}/${s}` }])));
}

const table: Record<string, Quirk> = {
  Educators: listing('Educators/EducatorCalendarTasks'),
  Employees: listing('Employees/Substitutions'),
  PersonalDataAccesses: notAllowed,
  ReceivingPush: notAllowed,
  UserAppActivity: notAllowed,
  'Motions/PaymentDeclaration': notAllowed,
  'Motions/File': notAllowed,
  'Auth/DescriptiveGradingSystem/PartialGrades': listing('Auth/DescriptiveGradingSystem/PartialGrades/LessonAssignments'),
  ChangeRegister: () => answers.invalidRequest(),
  PushDevices: () => answers.invalidRequest(),
  PushChanges: () => answers.filterInvalid(),
  StudentDuty: () => answers.forbidden('Account not have access to resource'),
  OneRoster: () => ({ status: 500, html: '' }),
  NotificationCenter: () => ({
    status: 200,
    html: '<!DOCTYPE html><html lang="pl"><head><meta charset="UTF-8"><title>Centrum powiadomień</title></head><body><div id="app"></div></body></html>',
  }),
};

for (const name of [
  'SchoolInfo',
  'Duties',
  'WhatsNew',
  'Reports',
  'Indywidualni',
  'SchoolReceiveMessage',
  'SchoolAgreement',
  'IdwUser',
  'OsinInfo',
]) {
  table[name] = scopes;
}

for (const name of [
  'ExamResult',
  'DescriptiveLessonGrades',
  'BehaviourDescriptiveGrades',
  'DeclarationOfAvailability',
  'Surveys',
  'Surveys/Details',
  'ClientVersion',
  'Auth/AutoLoginToken',
  'SpecialAchievement',
  'SpecialAchievement/Student',
  'SpecialAchievement/Students',
  'SpecialAchievement/Achievements',
  'Employees/Substitutions',
  'DescriptiveGrades/Text',
  'AttendanceTypes',
]) {
  table[name] = notFound;
}

for (const name of [
  'StudentInsurances',
  'NotificationCenterDeferrals',
  'SilentNight',
  'SchoolNicknames',
  'Educators/EducatorCalendarTasks',
  'Educators/EducatorCalendarTasks/Types',
  'Motions',
  'Motions/Activities',
  'Motions/Available',
  'Motions/Charges',
  'Grades/CategoriesAverages',
  'BehaviourGrades/SystemProposal',
  'Substitutions',
  'Calendars/TeacherFreeDays',
]) {
  table[name] = forbidden;
}

/** The fixed answer of an endpoint, or undefined when it answers normally. */
export function quirkFor(endpoint: string, api: string): DataResult | undefined {
  return table[endpoint]?.(api);
}

/** Every module name the quirks know, for the gateway's index. */
export const quirkModules: readonly string[] = Object.keys(table);
