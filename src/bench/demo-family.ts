// The bench's demo family (issue 59): the simulator's three children, two pupils and the preschool child, read
// side by side on the register road at the defaults, with each child's requests per day counted apart, and the
// preschool child's first start beside a pupil's (performance.md's eighth round: a kindergarten child's day at most
// half a school child's, its start at most 3 requests more).
import { DEMO_FAMILY_PROFILES, benchLogin, type BenchProfile } from './accounts.js';
import { count, decimal } from './doc-figures.js';
import { simulate, type CountsAnswer } from './simulate.js';
import type { BenchTableRow } from './results.js';

const MONDAY = '2026-11-16T00:00:00+01:00';
const DAYS = 2;
/** A Wednesday lesson, as the bench's first start (main.ts). */
const FIRST_START = '2026-11-18T09:11:30+01:00';

/** Each child's requests per day: what the simulator counted under its login (a login's own steps included). */
export function perChildRequests(counts: CountsAnswer, profiles: readonly BenchProfile[], days: number): number[] {
  return profiles.map((_, i) => Object.values(counts.byLogin[benchLogin(i, profiles).login] ?? {}).reduce((a, b) => a + b, 0) / days);
}

/** A first start's requests for one child of a profile (its first minute, the change feed's registration left out). */
async function firstStart(profile: BenchProfile, road: 'register' | 'family'): Promise<number> {
  const run = await simulate({ children: 1, start: FIRST_START, days: 1 / 1440, record: false, profiles: [profile], road });
  const registration = Object.values(run.counts.byLogin)
    .flatMap((paths) => Object.entries(paths))
    .filter(([path]) => path.endsWith('ChangeRegister'))
    .reduce((n, [, c]) => n + c, 0);
  return run.counts.total - registration;
}

export async function demoFamilyRuns(
  log: (text: string) => void,
): Promise<{ rows: BenchTableRow[]; figures: Record<string, string>; json: unknown }> {
  log("simulating two days of the demo family's three children (two pupils and the preschool child) on the register road...");
  const run = await simulate({ children: DEMO_FAMILY_PROFILES.length, start: MONDAY, days: DAYS, profiles: DEMO_FAMILY_PROFILES, record: false });
  const [ania = 0, janek = 0, zosia = 0] = perChildRequests(run.counts, DEMO_FAMILY_PROFILES, DAYS);
  const school = (ania + janek) / 2;
  log("counting a first start's requests for the preschool child and a pupil, on either road...");
  const [startSchool, startPreschool] = [await firstStart('ania', 'register'), await firstStart('zosia', 'register')];
  const [familySchool, familyPreschool] = [await firstStart('ania', 'family'), await firstStart('zosia', 'family')];
  const rows: BenchTableRow[] = [
    {
      measure: 'demo family, register road: requests per child per day, Ania / Janek / Zosia (preschool)',
      value: `${ania.toFixed(0)} / ${janek.toFixed(0)} / ${zosia.toFixed(0)}`,
      target: '',
      ok: null,
    },
    {
      measure: "  the preschool child's day against a school child's (the two pupils' mean)",
      value: (zosia / school).toFixed(2),
      target: '<= 0.5',
      ok: zosia <= school / 2,
    },
    {
      measure: 'a first start: a pupil / the preschool child (requests), register road; family road',
      value: `${startSchool} / ${startPreschool}; ${familySchool} / ${familyPreschool}`,
      target: '<= pupil + 3',
      ok: startPreschool <= startSchool + 3 && familyPreschool <= familySchool + 3,
    },
  ];
  const figures = {
    requests_demo_ania: count(ania),
    requests_demo_janek: count(janek),
    requests_demo_preschool: count(zosia),
    preschool_share: decimal(zosia / school, 2),
    first_start_preschool: String(startPreschool),
    first_start_school: String(startSchool),
    first_start_preschool_family: String(familyPreschool),
    first_start_school_family: String(familySchool),
  };
  const endpoints = Object.fromEntries(DEMO_FAMILY_PROFILES.map((p, i) => [p, run.counts.byLogin[benchLogin(i, DEMO_FAMILY_PROFILES).login] ?? {}]));
  return {
    rows,
    figures,
    json: { perDay: { ania, janek, zosia }, start: { school: startSchool, preschool: startPreschool, familySchool, familyPreschool }, endpoints },
  };
}
