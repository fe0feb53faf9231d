// What a child is, from what its first pass learns (interface 16.2, live-notes 58), on either road: a kindergarten
// child by its plan found, a Me that names no class, a unit that gives no grades, or (no class named) its timetable
// and grades refused; a pupil by its timetable or a kind of grade answered, or a class named; not known before either.
import { describe, expect, it } from 'vitest';
import { AccountFeatures } from '../../../src/runner/account-features.js';
import { KINDERGARTEN_SEARCH } from '../../../src/engine/resources/kindergarten.js';
import { GRADES, UNITS } from '../../../src/engine/resources/grades.js';
import { TIMETABLE } from '../../../src/engine/resources/timetable.js';
import { ENTITIES } from '../../../src/features/index.js';
import { unitsResponse } from '../../../src/portal/schemas/identity.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';
import type { Identity } from '../../../src/engine/identity.js';
import type { FeatureAccess } from '../../../src/features/feature.js';
import type { Resource } from '../../../src/engine/resource.js';

const T0 = Date.parse('2026-11-18T08:00:00+01:00');
const CHILD: Identity = { firstName: 'Zofia', lastName: 'Kowalska', userId: '1843378', unitId: '3', fetchedAt: T0 };
const grades = (on: boolean) => ({ StandardGradesEnabled: on, PointGradesEnabled: on, DescriptiveGradesEnabled: on });
/** The school's unit, and the kindergarten's (Id 3) as its settings say. */
const UNITS_ANSWER = unitsResponse.parse({
  Units: [
    { Id: 1, GradesSettings: grades(true) },
    { Id: 3, GradesSettings: grades(false) },
  ],
});

/** A child's features after a first pass whose copies (`copies`), answers and refusals are as given. */
async function child(
  identity: Identity | undefined,
  first: { copies?: Map<Resource, unknown>; answered?: Resource[]; refused?: Resource[] } = {},
): Promise<AccountFeatures> {
  const held = {
    peek: (res: Resource) => first.copies?.get(res),
    answered: (res: Resource) => first.answered?.includes(res) ?? false,
    refusal: (res: Resource) => (first.refused?.includes(res) ? { since: T0, at: T0 } : undefined),
  };
  const access = { account: { login: '5432167u' }, dataDir: await tempDir(), log: silentLogger(), cache: held, identity: () => identity };
  const features = new AccountFeatures([], access as unknown as FeatureAccess);
  await features.prepare();
  features.absent.update(held, ENTITIES);
  return features;
}

describe("a child's kind, from its first pass", () => {
  it('is a kindergarten child when its Me names no class, whatever its lists did', async () => {
    expect((await child({ ...CHILD, noClass: true })).kind()).toBe('kindergarten');
  });

  it("is a kindergarten child when its unit gives no grades, not when another unit of the school's does", async () => {
    const copies = new Map<Resource, unknown>([[UNITS, UNITS_ANSWER]]);
    expect((await child(CHILD, { copies })).kind()).toBe('kindergarten');
    expect((await child({ ...CHILD, unitId: '1', className: '4b' }, { copies })).kind()).toBe('school');
  });

  it('is a kindergarten child when its timetable and grades are refused, and once its plan is found', async () => {
    expect((await child(CHILD, { refused: [TIMETABLE, GRADES] })).kind()).toBe('kindergarten');
    expect((await child(CHILD, { refused: [TIMETABLE] })).kind()).toBeUndefined();
    const found = { state: 'found', at: T0, lid: 'LID-AUTH-USER-1', place: 'Me', host: 'api' };
    expect((await child(CHILD, { copies: new Map([[KINDERGARTEN_SEARCH, found]]) })).kind()).toBe('kindergarten');
  });

  it('is a pupil once a kind of grade answers, even with no class in its Me, or when its class is named', async () => {
    expect((await child({ ...CHILD, noClass: true }, { answered: [GRADES] })).kind()).toBe('school');
    expect((await child({ ...CHILD, className: '4b' })).kind()).toBe('school');
    // A pupil whose school refuses her timetable and grades stays one: they leave her device after a day of refusals.
    expect((await child({ ...CHILD, className: '4b' }, { refused: [TIMETABLE, GRADES] })).kind()).toBe('school');
  });

  it('is not known before its first pass tells', async () => {
    expect((await child(undefined)).kind()).toBeUndefined();
    expect((await child(CHILD)).kind()).toBeUndefined();
  });
});
