import { describe, expect, it } from 'vitest';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { averages, neededForNext, gradeScale, type SubjectAverage } from '../../../../src/rules/averages.js';
import { renderGradeAtRisk, renderSubjectAverage, SubjectEntities } from '../../../../src/features/grades/subject-averages.js';
import { DEFAULT_GRADE_THRESHOLDS } from '../../../../src/config/schema.js';
import { AccountFeatures } from '../../../../src/runner/account-features.js';
import { feature, type FeatureAccess } from '../../../../src/features/feature.js';
import { sensor } from '../../../../src/features/kit/entities.js';
import { silentLogger } from '../../../../src/util/log.js';
import { categories, grades, grading, names } from '../../rules/fixtures.js';
import { gradeCommentsResponse } from '../../../../src/portal/schemas/grades.js';
import { tempDir } from '../../../helpers/temp.js';
import type { SourceContext } from '../../../../src/engine/source.js';

const T = DEFAULT_GRADE_THRESHOLDS;
const MATHS = 1;
const POLISH = 2;
const UNNAMED = 99; // no such subject in the names

function subject(rows: [string, number][]): SubjectAverage {
  const cats = categories(rows.map(([, w], i) => [100 + i, `w${w}`, w]));
  const value = averages({ grades: grades(rows.map(([g], i) => [i + 1, g, MATHS, 100 + i])), categories: cats, semester: 1, names });
  return value.subjects[0]!;
}

describe('neededForNext', () => {
  it('is the lowest grade of weight 1 that reaches the next threshold (the examples in docs/entities.md)', () => {
    expect(
      neededForNext(
        subject([
          ['4', 2],
          ['3', 1],
        ]),
        T,
      ),
    ).toEqual({ threshold: 3.75, grade: '4' });
    expect(
      neededForNext(
        subject([
          ['3', 1],
          ['3', 1],
          ['2', 1],
        ]),
        T,
      ),
    ).toEqual({ threshold: 2.75, grade: '3' });
  });

  it("follows the school's plus and minus sizes", () => {
    // 28 / 6 = 4.67 -> 4.75 needs g >= 5.25: a 5+ is 5.5 by default, 5.33 at a third.
    const s = subject([
      ['5+', 2],
      ['4', 3],
      ['5', 1],
    ]);
    expect(neededForNext(s, T).grade).toBe('5+');
    const thirds = gradeScale({ plusValue: 0.33, minusValue: 0.33, countZero: false });
    // On that scale the grades themselves are worth less: 5.33*2 + 12 + 5 = 27.66, 4.61; g >= 5.59: a 6-.
    const onThirds = averages({
      grades: grades([
        [1, '5+', MATHS, 101],
        [2, '4', MATHS, 102],
        [3, '5', MATHS, 103],
      ]),
      categories: categories([
        [101, 'a', 2],
        [102, 'b', 3],
        [103, 'c', 1],
      ]),
      gradingSystem: { plusValue: 0.33, minusValue: 0.33, countZero: false },
      semester: 1,
      names,
    }).subjects[0]!;
    expect(neededForNext(onThirds, T, thirds)).toEqual({ threshold: 4.75, grade: '6-' });
  });

  it('is null when no grade can reach it, at the top, and with no average yet', () => {
    expect(
      neededForNext(
        subject([
          ['5', 3],
          ['6', 1],
        ]),
        T,
      ),
    ).toEqual({ threshold: 5.5, grade: null });
    expect(neededForNext(subject([['6', 1]]), T)).toEqual({ threshold: null, grade: null });
    expect(neededForNext(subject([['np', 1]]), T)).toEqual({ threshold: null, grade: null });
  });

  it('takes an average shown at a threshold as reaching it', () => {
    // 3.745 is shown 3.75: the next threshold is 4.75, not 3.75.
    expect(neededForNext({ ...subject([['4', 1]]), average: 3.745, weighted: 7.49, weights: 2 }, T).threshold).toBe(4.75);
  });
});

describe('renderSubjectAverage', () => {
  it('shows the average, every grade newest first with its teacher and comment, the period grades, what the next grade must be and the forecast', () => {
    const src = {
      grades: grades([
        [1, '4', MATHS, 101, { Date: '2026-01-05', Comments: [{ Id: 7 }] }],
        [2, '3', MATHS, 102, { Date: '2026-01-12' }],
        [3, '4', MATHS, 103, { IsSemesterProposition: true }],
        // A mark that is no grade, and a grade of a category that does not count: listed, never averaged.
        [4, 'np', MATHS, 102, { Date: '2026-01-13' }],
        [5, '6', MATHS, 104, { Date: '2026-01-14' }],
      ]),
      categories: categories([
        [101, 'Sprawdzian', 2],
        [102, 'Kartkówka', 1],
        [103, 'Proponowana', 0],
        [104, 'Konkurs', 1, false],
      ]),
      comments: gradeCommentsResponse.parse({ Comments: [{ Id: 7, Text: 'Dobrze,   ale  bez wniosków.' }] }).Comments,
    };
    const value = averages({ ...src, semester: 1, names });
    const teacher = 'Anna Nowak';
    expect(renderSubjectAverage(value.subjects[0]!, value, grading(src))).toEqual({
      state: '3.67',
      attributes: {
        subject: 'Matematyka',
        semester: 1,
        count: 2,
        grades: [
          // The contest's 6 (a category that does not count) and the np (a mark) say that they do not count.
          { grade: '6', weight: 1, category: 'Konkurs', date: '2026-01-14', teacher, comment: null, kind: 'standard', counts_to_average: false },
          { grade: 'np', weight: 1, category: 'Kartkówka', date: '2026-01-13', teacher, comment: null, kind: 'standard', counts_to_average: false },
          { grade: '3', weight: 1, category: 'Kartkówka', date: '2026-01-12', teacher, comment: null, kind: 'standard' },
          { grade: '4', weight: 2, category: 'Sprawdzian', date: '2026-01-05', teacher, comment: 'Dobrze, ale bez wniosków.', kind: 'standard' },
        ],
        semester_proposal: '4',
        next_threshold: 3.75,
        needed_for_next: '4',
        // 11 / 3 = 3.67, a 3; one 4 of weight 1 makes 15 / 4 = 3.75, a 4. Both grades were counted by 16 January.
        forecast: '3',
        trend: 'steady',
        to_next: { grade: '4', count: 1 },
      },
    });
  });

  it('counts a plain mean when the school says so (grading.average: arithmetic), the weights still listed', () => {
    const src = {
      grades: grades([
        [1, '6', MATHS, 101, { Date: '2026-01-05' }],
        [2, '3', MATHS, 102, { Date: '2026-01-12' }],
      ]),
      categories: categories([
        [101, 'Sprawdzian', 3],
        [102, 'Kartkówka', 1],
      ]),
    };
    const weighted = averages({ ...src, semester: 1, names });
    const plain = averages({ ...src, semester: 1, names, averaging: 'arithmetic' });
    expect(renderSubjectAverage(weighted.subjects[0]!, weighted, grading(src))).toMatchObject({ state: '5.25', attributes: { forecast: '5' } });
    const rendered = renderSubjectAverage(plain.subjects[0]!, plain, grading(src));
    expect(rendered).toMatchObject({ state: '4.50', attributes: { forecast: '4', to_next: { grade: '6', count: 1 } } });
    expect(rendered.attributes.grades?.map((g) => g.weight)).toEqual([1, 3]);
  });

  it('keeps every attribute list under 16 KB in a full school year, and the state exact', () => {
    // A heavy subject: 120 grades this semester, each with a long category name.
    const rows: [number, string, number, number?, Record<string, unknown>?][] = [];
    for (let i = 1; i <= 120; i++)
      rows.push([i, ['5', '4+', '3-', '6'][i % 4]!, MATHS, 100 + (i % 10), { Date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}` }]);
    const cats = categories(
      Array.from({ length: 10 }, (_, i) => [100 + i, `Praca klasowa z działu ${i}: ułamki zwykłe i dziesiętne, zadania tekstowe`, 1 + (i % 3)]),
    );
    // Each grade with a comment of 300 characters, cut in the list.
    const long = { Comments: [{ Id: 1 }] };
    const comments = gradeCommentsResponse.parse({ Comments: [{ Id: 1, Text: 'Bardzo staranna praca. '.repeat(13) }] }).Comments;
    const src = {
      grades: grades(rows.map(([id, g, subject, category, extra]) => [id, g, subject, category, { ...extra, ...long }])),
      categories: cats,
      comments,
    };
    const value = averages({ ...src, semester: 1, names });
    const rendered = renderSubjectAverage(value.subjects[0]!, value, grading(src));
    expect(Buffer.byteLength(JSON.stringify(rendered.attributes))).toBeLessThan(16 * 1024);
    expect(rendered.state).toBe(value.subjects[0]!.average!.toFixed(2));
    expect(rendered.attributes).toMatchObject({ count: 120 });
    // A realistic year (40 grades) loses nothing.
    expect(rendered.attributes.grades?.[0]?.comment).toHaveLength(200);
    const year = { grades: grades(rows.slice(0, 40)), categories: cats };
    const yearValue = averages({ ...year, semester: 1, names });
    const full = renderSubjectAverage(yearValue.subjects[0]!, yearValue, grading(year));
    expect(full.attributes).not.toHaveProperty('truncated');
    expect((full.attributes!.grades as unknown[]).length).toBe(40);
  });

  it('names a subject the school left unnamed by its id', () => {
    const value = averages({ grades: grades([[1, '2', UNNAMED]]), semester: 1, names });
    expect(renderSubjectAverage(value.subjects[0]!, value, grading({}))).toMatchObject({ state: '2.00', attributes: { subject: String(UNNAMED) } });
  });
});

describe('renderGradeAtRisk', () => {
  it('is ON with the subjects below the first threshold, a subject with no average left out', () => {
    const value = averages({
      grades: grades([
        [1, '1', MATHS],
        [2, '2-', MATHS],
        [3, '5', POLISH],
        [4, '1', UNNAMED],
        [5, 'np', 3],
      ]),
      semester: 1,
      names,
    });
    expect(renderGradeAtRisk(value, T)).toEqual({
      state: 'ON',
      attributes: {
        threshold: 1.75,
        subjects: [
          { subject: String(UNNAMED), average: 1 },
          { subject: 'Matematyka', average: 1.38 },
        ],
      },
    });
  });

  it('is OFF when every average is at or above it', () => {
    const value = averages({ grades: grades([[1, '2-', MATHS]]), semester: 1, names });
    expect(renderGradeAtRisk(value, T)).toEqual({ state: 'OFF', attributes: { threshold: 1.75, subjects: [] } });
  });

  it('is unknown, never OFF, without the grades list (refused, or not read yet)', () => {
    expect(renderGradeAtRisk(null, T)).toEqual({ state: null, attributes: {} });
  });
});

describe('SubjectEntities', () => {
  const year = (subjects: [string, string | null][]) => subjects.map(([subjectId, subject]) => ({ subjectId, subject, points: false }));

  it('has one sensor per subject of the year, drops one with no grade left, and keeps its key for its return', async () => {
    const dataDir = await tempDir();
    const entities = new SubjectEntities({ dataDir, login: 'rodzic', log: silentLogger() });
    await entities.update(
      year([
        ['2', 'Język polski'],
        ['1', 'Matematyka'],
        ['7', null],
        ['8', 'Język  polski'],
      ]),
      [],
      T,
    );
    expect(entities.entities().map((e) => [e.key, e.name.pl, e.name.en])).toEqual([
      ['average_jezyk_polski', 'Średnia – Język polski', 'Average – Język polski'],
      ['average_jezyk_polski_2', 'Średnia – Język  polski', 'Average – Język  polski'],
      ['average_matematyka', 'Średnia – Matematyka', 'Average – Matematyka'],
      ['average_subject_7', 'Średnia – przedmiot 7', 'Average – subject 7'],
    ]);
    await entities.update(
      year([
        ['1', 'Matematyka'],
        ['8', 'Język  polski'],
      ]),
      [],
      T,
    );
    expect(entities.entities().map((e) => e.key)).toEqual(['average_jezyk_polski_2', 'average_matematyka']);

    // A restart: the keys come back from data_dir, the same subjects announced before any pass.
    const again = new SubjectEntities({ dataDir, login: 'rodzic', log: silentLogger() });
    await again.load();
    expect(again.entities().map((e) => e.key)).toEqual(['average_jezyk_polski_2', 'average_matematyka']);
    await again.update(
      year([
        ['2', 'Język polski'],
        ['1', 'Matematyka'],
        ['8', 'Język  polski'],
      ]),
      [],
      T,
    );
    expect(again.entities().map((e) => e.key)).toEqual(['average_jezyk_polski', 'average_jezyk_polski_2', 'average_matematyka']);
  });

  it('tells a subject whose forecast moved from one grade to another, never at its first read, across a restart too (forecast_changed)', async () => {
    const dataDir = await tempDir();
    const maths = (rows: [string, number][]) => [subject(rows)];
    const entities = new SubjectEntities({ dataDir, login: 'rodzic', log: silentLogger() });
    const subjects = year([[String(MATHS), 'Matematyka']]);
    // The first read knows the forecast (live-notes 50: a 5 of weight 3 and a 3, 4.50, a 4) and tells nothing.
    const first: [string, number][] = [
      ['5', 3],
      ['3', 1],
    ];
    expect(await entities.update(subjects, maths(first), T)).toEqual([]);
    expect(await entities.update(subjects, maths(first), T)).toEqual([]);
    // One 6: 4.80, a 5.
    expect(await entities.update(subjects, maths([...first, ['6', 1]]), T)).toEqual([
      { subject: 'Matematyka', previous: '4', forecast: '5', average: 4.8 },
    ]);
    // A restart remembers the 5: a 1 then makes it a 4 again (4.17), told.
    const again = new SubjectEntities({ dataDir, login: 'rodzic', log: silentLogger() });
    await again.load();
    expect(await again.update(subjects, maths([...first, ['6', 1], ['1', 1]]), T)).toEqual([
      { subject: 'Matematyka', previous: '5', forecast: '4', average: 4.17 },
    ]);
    // No grade counted (a new semester): no forecast, and its first grade after none is no change.
    expect(await again.update(subjects, [{ ...subject([['2', 3]]), average: null }], T)).toEqual([]);
    expect(await again.update(subjects, maths([['2', 3]]), T)).toEqual([]);
  });

  it('starts afresh from a corrupt or foreign memory file', async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, 'subjects'), { recursive: true });
    await writeFile(join(dataDir, 'subjects', 'rodzic.json'), '{"subjects":{"1":{"slug":"../x"}},"present":["1",2]}');
    const entities = new SubjectEntities({ dataDir, login: 'rodzic', log: silentLogger() });
    await entities.load();
    expect(entities.entities()).toEqual([]);
    await writeFile(join(dataDir, 'subjects', 'rodzic.json'), '{not json');
    await entities.load();
    expect(entities.entities()).toEqual([]);
    await entities.update(year([['1', 'Matematyka']]), [], T);
    expect(JSON.parse(await readFile(join(dataDir, 'subjects', 'rodzic.json'), 'utf8'))).toEqual({
      subjects: { '1': { slug: 'matematyka', name: 'Matematyka' } },
      present: ['1'],
      points: [],
      forecasts: {},
    });
  });
});

describe('dynamic entities in the framework', () => {
  it("lists a feature state's dynamic entities and says when their keys changed", async () => {
    let keys = ['a'];
    const dyn = feature({
      name: 'dyn',
      entities: [],
      create: () => ({
        dynamic: () => keys.map((k) => sensor(`dyn_${k}`, { en: k, pl: k, uk: k })),
        compute: async () => ({}),
      }),
    });
    const account = { login: 'x', downloads: false, write_messages: false, messages: [] };
    const features = new AccountFeatures([dyn], { account, dataDir: await tempDir(), cache: {} } as unknown as FeatureAccess);
    expect(features.entities().map((e) => e.key)).toEqual(['dyn_a']);
    const ctx = { today: '2026-11-18', asked: false, log: silentLogger() } as Omit<SourceContext, 'inputs' | 'cache'>;
    const compute = () => features.compute(ctx, { startPass: false, unread: new Set() });
    expect((await compute()).entitiesChanged).toBeUndefined();
    keys = ['a', 'b'];
    expect((await compute()).entitiesChanged).toBe(true);
    expect(features.entities().map((e) => e.key)).toEqual(['dyn_a', 'dyn_b']);
    expect((await compute()).entitiesChanged).toBeUndefined();
  });
});

describe('the school’s own averages (live-notes 12)', () => {
  it('adds the ones above 0, rounded, and leaves out none yet', async () => {
    const { schoolAverageAttributes, schoolSemesterAverage } = await import('../../../../src/features/grades/subject-averages.js');
    expect(schoolAverageAttributes({ Subject: '1', Semester1: 4.286, Semester2: 0, FullYear: 4.26 })).toEqual({
      school_semester1: 4.29,
      school_year: 4.26,
    });
    expect(schoolAverageAttributes(undefined)).toEqual({});
    expect(schoolSemesterAverage({ Subject: '1', Semester1: 4.29, Semester2: 0, FullYear: 0 }, 2)).toEqual({});
    expect(schoolSemesterAverage({ Subject: '1', Semester1: 4.29, Semester2: 0, FullYear: 0 }, 1)).toEqual({ school: 4.29 });
  });
});
