// What real schools answer (live-notes 8-15), as named switches over a whole simulated school: the
// demo turns them on with `--quirks`, so a family can see how the bridge shows such a school.
import { addDays } from './dates.js';
import type { PortalSimulator } from './index.js';

export const LIVE_QUIRKS = [
  'no-lucky',
  'module-off',
  'school-complex',
  'moved-lesson',
  'school-averages',
  'bootstrap-via-auth',
  // The login as the live portal runs it (live-notes 16-19).
  'login-2026',
  'password-leak',
] as const;
/**
 * What can go wrong on the family road (live-notes 21-26), named one by one: `all` leaves them out, since
 * `register-broken` stops the register road of every demo child.
 */
export const FAMILY_QUIRKS = ['family-captcha', 'family-link-action', 'family-403', 'family-token-short', 'register-broken'] as const;
export type LiveQuirk = (typeof LIVE_QUIRKS)[number] | (typeof FAMILY_QUIRKS)[number];

/** Subjects every demo child is graded in, with the school's own averages [Semester1, Semester2, FullYear]. */
const SCHOOL_AVERAGES: Record<number, [number, number, number]> = { 5011: [4.5, 0, 4.5], 5012: [4.29, 0, 4.26] };

/** The resource the API host refuses with 403 under `family-403` (as it refuses `Messages` always). */
export const FAMILY_FORBIDDEN_RESOURCE = 'LuckyNumbers';
/** How long a bearer token lives under `family-token-short`. */
const SHORT_TOKEN_MS = 10 * 60_000;
/**
 * What the register login answered in September 2026 while the family road kept working (live-notes
 * 21-27): a refusal whose words are not about the password.
 */
export const REGISTER_BROKEN_WORDS = 'Wystąpił błąd [153]. Spróbuj ponownie później.';

/** Turns the named cases on for every account of the simulator. */
export function applyLiveQuirks(sim: PortalSimulator, logins: readonly string[], quirks: readonly LiveQuirk[]): void {
  const on = new Set(quirks);
  if (on.has('bootstrap-via-auth')) sim.messaging.bootstrapRoute = 'auth';
  if (on.has('login-2026')) sim.setLoginSwitch('login-2026', true);
  if (on.has('password-leak')) sim.setLoginSwitch('password-leak', true);
  if (on.has('family-captcha')) sim.families.captcha = true;
  if (on.has('family-token-short')) sim.families.tokenLifetimeMs = SHORT_TOKEN_MS;
  // The second child: the first one still shows the road working beside it.
  const second = logins[1] ?? logins.at(-1);
  if (on.has('family-link-action') && second !== undefined) sim.families.setLinkState(second, 'requiring_an_action');
  for (const login of logins) {
    const account = sim.account(login);
    if (on.has('no-lucky')) account.setLuckyForm('null');
    if (on.has('module-off')) account.setModuleStatus('EbiblioLendings', 'disabled');
    if (on.has('school-complex')) account.schoolComplex = true;
    if (on.has('school-averages')) account.setSchoolAverages(SCHOOL_AVERAGES);
    if (on.has('moved-lesson')) moveFirstLesson(sim, login);
    if (on.has('family-403')) sim.families.forbid(login, FAMILY_FORBIDDEN_RESOURCE);
    if (on.has('register-broken')) sim.refuseLogin(login, { message: REGISTER_BROKEN_WORDS, as: 'object' });
  }
}

/** The next school day's first lesson moves a week on, after that day's last lesson. */
function moveFirstLesson(sim: PortalSimulator, login: string): void {
  const schoolDays = sim.schoolDays(login);
  for (let date = addDays(sim.today(), 1), i = 0; i < 14; date = addDays(date, 1), i++) {
    const lessons = schoolDays.lessonsOn(date);
    const first = lessons[0];
    if (!first) continue;
    const later = addDays(date, 7);
    const last = Math.max(...schoolDays.lessonsOn(later).map((l) => l.lessonNo), first.lessonNo);
    sim.account(login).moveLesson({ from: { date, lessonNo: first.lessonNo }, to: { date: later, lessonNo: last + 1 } });
    return;
  }
}

/** The quirks a `--quirks` value names ("all" for every school's and login's one); throws on a name it does not know. */
export function parseQuirks(value: string): LiveQuirk[] {
  if (value === 'all') return [...LIVE_QUIRKS];
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const known: readonly string[] = [...LIVE_QUIRKS, ...FAMILY_QUIRKS];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`unknown quirk ${unknown.join(', ')} (known: all, ${known.join(', ')})`);
  return names as LiveQuirk[];
}
