import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { behaviourPointsResponse, behaviourTypesResponse } from '../../../src/portal/schemas/behaviour.js';
import { descriptiveCommentsResponse, descriptiveGradesResponse, descriptiveSkillsResponse } from '../../../src/portal/schemas/descriptive.js';
import { gradeCommentsResponse } from '../../../src/portal/schemas/grades.js';
import { authSubjectsResponse } from '../../../src/portal/schemas/lookups.js';
import { baseTextGradesResponse, pointCategoriesResponse, pointGradesResponse } from '../../../src/portal/schemas/othergrades.js';
import { partialGradesResponse } from '../../../src/portal/schemas/partial.js';
import { gradeEvents, gradeItems, markOf, newestGrades, notGradeKeys } from '../../../src/rules/grades.js';
import { DEFAULT_SCALE } from '../../../src/rules/averages.js';
import type { GradeItem } from '../../../src/rules/grade-item.js';
import { renderNewestGrade } from '../../../src/features/grades/newest.js';
import { behaviourEvents } from '../../../src/rules/behaviour.js';
import { pointShown } from '../../../src/rules/grades-standard.js';
import { categories, grades, gradingSystem, names } from './fixtures.js';
import { gradesAsk } from '../../../src/features/grades/ask.js';
import { listedGrades } from '../../../src/features/grades/subject-averages.js';
import { factsServer, toolAnswer } from '../../helpers/mcp-tools.js';
import { EventGate } from '../../../src/once/gate.js';
import type { EventFields } from '../../../src/engine/source.js';
import type { NewsItem } from '../../../src/rules/news.js';
import { silentLogger } from '../../../src/util/log.js';

const pointSources = {
  pointGrades: pointGradesResponse.parse({
    Grades: [
      { Id: 1, Grade: '9.5/10', GradeValue: '9,5', Category: { Id: 1 }, Subject: { Id: 1 }, AddDate: '2026-01-12 09:00:00', AddedBy: { Id: 12 } },
    ],
  }).Grades,
  pointCategories: pointCategoriesResponse.parse({ Categories: [{ Id: 1, Name: 'test', ValueFrom: 0, ValueTo: 10 }] }).Categories,
};

const descriptiveSources = {
  descriptiveGrades: descriptiveGradesResponse.parse({
    Grades: [
      {
        Id: 5,
        Map: '5+',
        Grade: 3,
        Skill: { Id: 7 },
        AddedBy: { Id: 11 },
        Date: '2026-01-13',
        AddDate: '2026-01-13 10:00:00',
        Comments: [{ Id: 1 }],
      },
    ],
  }).Grades,
  skills: descriptiveSkillsResponse.parse({ Skills: [{ Id: 7, Name: 'Czytanie ze zrozumieniem', Subject: { Id: 4 } }] }).Skills,
  descriptiveComments: descriptiveCommentsResponse.parse({
    Comments: [
      { Id: 1, Text: 'Czyta płynnie' },
      { Id: 2, Text: 'i z pasją', Grade: { Id: 5 } },
    ],
  }).Comments,
};

describe('grade items of every kind', () => {
  it('reads an ordinary grade with its category, weight, teacher and comments', () => {
    const items = gradeItems(
      {
        grades: grades([[1, '5+', 1, 1, { Comments: [{ Id: 3 }] }]]),
        categories: categories([[1, 'sprawdzian', '1,5']]),
        comments: gradeCommentsResponse.parse({ Comments: [{ Id: 3, Text: 'Bardzo\n  dobrze' }] }).Comments,
      },
      names,
    );
    expect(items[0]).toMatchObject({
      key: 'grade:1',
      kind: 'grade',
      shown: '5+',
      subject: 'Matematyka',
      category: 'sprawdzian',
      weight: 1.5,
      teacher: 'Anna Nowak',
      date: '2026-01-10',
      comment: 'Bardzo dobrze',
      semester: 1,
    });
  });

  it('leaves out an entry of Grades that is not on the 1-6 scale nor a mark (spec 2.4): no newest grade, no recent, no event', () => {
    const items = gradeItems(
      {
        grades: grades([
          [1, '4', 1],
          [2, '85', 1],
          [3, 'np', 1],
          [4, '0+', 1],
          [5, '5-', 1],
          [6, '+', 1],
          [7, 'NP', 1],
        ]),
      },
      names,
    );
    expect(items.map((i) => i.shown).sort()).toEqual(['+', '4', '5-', 'NP', 'np']);
    const { newest, recent } = newestGrades(items);
    // The stray 85 was entered last of all but one: it must not be the newest grade nor in the list.
    expect(newest?.shown).toBe('NP');
    expect(recent.map((i) => i.shown)).not.toContain('85');
    expect(gradeEvents(items).map((e) => e.payload.grade)).not.toContain('85');
  });

  it('shows point grades as points over the category maximum with the percentage', () => {
    const [item] = gradeItems(pointSources, names);
    expect(item).toMatchObject({
      key: 'point:1',
      shown: '9,5/10 pkt',
      category: 'test',
      teacher: 'Jan Kowalski',
      details: { points: 9.5, max_points: 10, percent: 95 },
    });
  });

  it('writes a point grade as the teacher did, over the maximum where the category gives one', () => {
    expect(pointShown({ Grade: '17', GradeValue: 17 }, 20)).toBe('17/20 pkt');
    expect(pointShown({ Grade: '9.5', GradeValue: 9.5 }, 10)).toBe('9,5/10 pkt');
    expect(pointShown({ GradeValue: 9.5 }, undefined)).toBe('9,5 pkt');
    expect(pointShown({ Grade: 'zw.' }, 10)).toBe('zw.');
  });

  it('takes a descriptive grade from Map, never Grade, with the skill name and both comment links', () => {
    const [item] = gradeItems(descriptiveSources, names);
    expect(item).toMatchObject({
      key: 'descriptive:5',
      kind: 'descriptive',
      shown: '5+',
      subject: 'Edukacja wczesnoszkolna',
      category: 'Czytanie ze zrozumieniem',
      teacher: 'Sekretariat',
      comment: 'Czyta płynnie; i z pasją',
    });
  });

  it('collapses the whitespace of text grades', () => {
    const [item] = gradeItems(
      {
        textGrades: baseTextGradesResponse.parse({
          Grades: [{ Id: 2, Grade: '  Uczeń\n\t\tpracuje\r\n  systematycznie ', Subject: { Id: 2 } }],
        }).Grades,
      },
      names,
    );
    expect(item).toMatchObject({ key: 'text:2', shown: 'Uczeń pracuje systematycznie', subject: 'Język polski' });
  });

  it('leaves out a text grade the school keeps out of the grades view, and names it to be forgotten quietly', () => {
    const textGrades = baseTextGradesResponse.parse({
      Grades: [
        { Id: 3, Grade: 'Opinia', Subject: { Id: 2 }, ShowInGradesView: false, AddDate: '2026-11-18 10:00:00' },
        { Id: 4, Grade: 'Pracuje', Subject: { Id: 2 }, ShowInGradesView: true, AddDate: '2026-11-17 10:00:00' },
      ],
    }).Grades;
    expect(gradeItems({ textGrades }, names).map((i) => i.key)).toEqual(['text:4']);
    expect(notGradeKeys({ textGrades })).toEqual(['text:3']);
  });

  describe('behaviour', () => {
    const behaviourTypes = behaviourTypesResponse.parse({
      Types: [{ Id: '2', Name: 'bardzo dobre', Shortcut: 'bdb' }],
    }).Types;
    // A behaviour entry is no subject grade (issue 36): not among the grades, and a behaviour_grade event of its own.
    it.each([
      [
        'classic scale via the types',
        { BehaviourGrade: { Id: '2' }, ShortName: '', Text: '' },
        { grade: 'bardzo dobre', short: 'bdb', points: null },
      ],
      ['classic scale without the types list', { BehaviourGrade: { Id: '6' } }, { grade: 'naganne', short: 'ng', points: null }],
      ['points schools', { Value: '15', ShortName: 'pochwała' }, { grade: '15 pkt', short: 'pochwała', points: 15 }],
      ['short name only', { ShortName: 'wz' }, { grade: 'wz', short: 'wz', points: null }],
    ])('%s', (_name, fields, shown) => {
      const behaviourPoints = behaviourPointsResponse.parse({ Grades: [{ Id: 1, Semester: 1, ...fields }] }).Grades;
      expect(gradeItems({ behaviourPoints }, names)).toEqual([]);
      const [event] = behaviourEvents({ grades: behaviourPoints, types: behaviourTypes, names, today: '2026-11-18' });
      expect(event).toMatchObject({ id: 'behaviour:1', payload: { id: 'behaviour:1', ...shown } });
    });
  });

  describe('partial grades (spec 4.5)', () => {
    const authSubjects = authSubjectsResponse.parse({
      data: [{ identifier: 'LID-S-4', numericIdentifier: 4, name: 'Edukacja (nowa)' }],
    }).subjects;
    const read = (items: unknown[]) => gradeItems({ partialGrades: partialGradesResponse.parse({ data: items }).data, authSubjects }, names);

    it('maps id, skill, mark, comments, subject and teacher', () => {
      const [item] = read([
        {
          gradeId: 'LID-G-1',
          teacherId: 'LID-AUTH-USER-aaaa',
          area: { id: 'x', name: 'Liczenie' },
          subjectId: 'LID-S-4',
          scaleValue: { id: 1, value: '0' },
          content: 'Próbuje',
          comments: 'Do ćwiczenia',
          date: '2026-01-14',
          semester: 1,
        },
      ]);
      expect(item).toMatchObject({
        key: 'descriptive:pLID-G-1',
        kind: 'descriptive',
        shown: '0',
        subject: 'Edukacja wczesnoszkolna',
        category: 'Liczenie',
        teacher: 'Anna Nowak',
        comment: 'Próbuje; Do ćwiczenia',
      });
    });

    it.each([
      ['a numeric subjectId is an ordinary subject id', { subjectId: 1 }, 'Matematyka'],
      ['an unknown LID has no subject', { subjectId: 'LID-S-9' }, null],
      ['a boolean subjectId is ignored', { subjectId: true }, null],
    ])('%s', (_name, fields, subject) => {
      const [item] = read([{ gradeId: 'g', scaleValue: { value: 3 }, ...fields }]);
      expect(item?.subject).toBe(subject);
      expect(item?.shown).toBe('3');
    });

    it('ignores a boolean mark', () => {
      const [item] = read([{ gradeId: 'g', scaleValue: { value: true } }]);
      expect(item?.shown).toBeNull();
    });
  });
});

describe('newest_grade', () => {
  const all = gradeItems(
    {
      grades: grades([
        [1, '3', 1],
        [2, 'np', 2, undefined, { AddDate: '2026-01-11 08:00:00' }],
      ]),
      ...pointSources,
      ...descriptiveSources,
    },
    names,
  );

  it('spans all kinds, newest by entry time', () => {
    const state = renderNewestGrade(newestGrades(all));
    expect(state.state).toBe('5+');
    expect(state.attributes).toMatchObject({
      subject: 'Edukacja wczesnoszkolna',
      kind: 'descriptive',
      category: 'Czytanie ze zrozumieniem',
      weight: null,
      teacher: 'Sekretariat',
      date: '2026-01-13',
      comment: 'Czyta płynnie; i z pasją',
    });
    expect((state.attributes!.recent as { grade: string }[]).map((r) => r.grade)).toEqual(['5+', '9,5/10 pkt', 'np', '3']);
  });

  it("says what a mark such as np means, in the bridge's language, and keeps the mark as written in `grade`", () => {
    const marks = newestGrades(all.filter((i) => i.kind === 'grade'));
    const pl = renderNewestGrade(marks, { language: 'pl', scale: DEFAULT_SCALE });
    expect(pl.state).toBe('np (nieprzygotowany)');
    expect(pl.attributes).toMatchObject({ grade: 'np', mark_name: 'nieprzygotowany' });
    expect(renderNewestGrade(marks, { language: 'en', scale: DEFAULT_SCALE }).state).toBe('np (unprepared)');
    // A grade is itself: no words beside it, in the state or in the list.
    expect(pl.attributes.recent).toEqual([
      {
        grade: 'np',
        subject: 'Język polski',
        kind: 'grade',
        date: '2026-01-10',
        teacher: 'Anna Nowak',
        comment: null,
        mark_name: 'nieprzygotowany',
        forecast: null,
      },
      { grade: '3', subject: 'Matematyka', kind: 'grade', date: '2026-01-10', teacher: 'Anna Nowak', comment: null, forecast: null },
    ]);
  });

  it("never shows a first-grader's 0 bare: on the descriptive scale it is no grade, and the state says so", () => {
    const items = gradeItems(
      { partialGrades: partialGradesResponse.parse({ data: [{ gradeId: 'g0', scaleValue: { id: 9, value: 0 }, date: '2026-11-16' }] }).data },
      names,
    );
    expect(renderNewestGrade(newestGrades(items), { language: 'pl', scale: DEFAULT_SCALE }).state).toBe('0 (nie jest oceną)');
    expect(renderNewestGrade(newestGrades(items), { language: 'uk', scale: DEFAULT_SCALE }).state).toBe('0 (не оцінка)');
  });

  it('names every mark in words of the language: a plus is "плюс" in Ukrainian, a mark no source names (nł) no grade', () => {
    const marks = newestGrades(
      gradeItems(
        {
          grades: grades([
            [1, 'nł', 1],
            [2, '+', 2, undefined, { AddDate: '2026-01-11 08:00:00' }],
          ]),
        },
        names,
      ),
    );
    const named = (language: 'pl' | 'en' | 'uk') => {
      const state = renderNewestGrade(marks, { language, scale: DEFAULT_SCALE });
      return [state.state, ...(state.attributes.recent ?? []).map((r) => r.mark_name)];
    };
    expect(named('uk')).toEqual(['+ (плюс)', 'плюс', 'не оцінка']);
    expect(named('pl')).toEqual(['+ (plus)', 'plus', 'nie jest oceną']);
    expect(named('en')).toEqual(['+ (plus)', 'plus', 'not a grade']);
  });

  it('is unknown without grades', () => {
    expect(renderNewestGrade(newestGrades([])).state).toBeNull();
  });

  it("keeps a state within 255 characters, and a text grade in the list within a list's length", () => {
    const long = 'x'.repeat(400);
    const items = gradeItems({ textGrades: baseTextGradesResponse.parse({ Grades: [{ Id: 1, Grade: long }] }).Grades }, names);
    const state = renderNewestGrade(newestGrades(items));
    expect(state.state).toHaveLength(255);
    expect(state.attributes?.text).toBe(long);
    expect(state.attributes?.recent?.[0]?.grade).toBe(`${long.slice(0, 199)}…`);
  });
});

describe('marks that are no grade', () => {
  const mark = (kind: GradeItem['kind'], shown: string, countZero = false) => markOf({ kind, shown }, { ...DEFAULT_SCALE, countZero });

  it('are the marks of spec 2.5 and a 0, never a grade of the 1-6 scale', () => {
    expect(['+', '-', 'np', 'NP', 'bz', '0'].map((m) => mark('grade', m))).toEqual(['+', '-', 'np', 'np', 'bz', '0']);
    expect(['1', '4+', '5-', '6'].map((m) => mark('grade', m))).toEqual([null, null, null, null]);
  });

  it('count a 0 as a grade only where the school counts zeros, and never on the descriptive scale', () => {
    expect(mark('grade', '0', true)).toBeNull();
    expect(mark('descriptive', '0', true)).toBe('0');
    expect(mark('descriptive', '4+')).toBeNull();
  });

  it('leave points and text grades alone', () => {
    expect(mark('point', '0/10 pkt')).toBeNull();
    expect(mark('text', 'zaliczył')).toBeNull();
  });
});

describe('grade events', () => {
  it('gives each grade one id, unique across kinds', async () => {
    const items = gradeItems(
      {
        grades: grades([[5, '4', 1]]),
        ...descriptiveSources,
        textGrades: baseTextGradesResponse.parse({ Grades: [{ Id: 5, Grade: 'ok' }] }).Grades,
      },
      names,
    );
    const events = gradeEvents(items);
    expect(events.map((e) => e.id).sort()).toEqual(['descriptive:5', 'grade:5', 'text:5']);
    // The event gate gives the event its type; what Home Assistant receives is what it fires.
    const fired = await throughGate('grade', events);
    expect(fired.find((e) => e.id === 'grade:5')).toMatchObject({
      event_type: 'grade',
      grade: '4',
      subject: 'Matematyka',
      kind: 'grade',
    });
  });
});

/** The payloads an event gate fires for these items once the kind is known (a first sight only primes). */
async function throughGate(kind: string, items: NewsItem<EventFields>[]): Promise<EventFields[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'grades-events-'));
  try {
    const fired: EventFields[] = [];
    const gate = new EventGate({
      child: () => ({ id: 'ania', name: 'Ania' }),
      dataDir,
      log: silentLogger(),
      fire: (_kind, payload) => void fired.push(payload),
      onStorage: () => {},
    });
    await gate.load('child');
    await gate.pass([[kind, []]]);
    await gate.pass([[kind, items]]);
    // The memory is written again once the (absent) broker took the events: wait for it before the folder goes.
    await gate.save();
    return fired;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('a mark that counts toward no average', () => {
  // Weight 2 each: a 0 where the school does not count zeros, a bare +, np, bz, and a 5 that counts.
  const sources = (countZero: boolean) => ({
    grades: grades([
      [1, '0', 1, 1],
      [2, '+', 1, 1],
      [3, 'np', 1, 1],
      [4, 'bz', 1, 1],
      [5, '5', 1, 1],
    ]),
    categories: categories([[1, 'Aktywność', 2, true]]),
    gradingSystem: gradingSystem({ countZero, plusValue: 0.5, minusValue: 0.25 }),
  });
  const counted = (items: readonly GradeItem[]) => Object.fromEntries(items.map((i) => [i.shown, i.details.counts_to_average ?? true]));

  it('says so beside its weight in newest_grade, its event and Assist, as a category that does not count does', async () => {
    const items = gradeItems(sources(false), names);
    expect(counted(items)).toEqual({ '0': false, '+': false, np: false, bz: false, '5': true });
    const plus = items.find((i) => i.shown === '+')!;
    expect(renderNewestGrade({ newest: plus, recent: [], proposals: [], described: [] }).attributes).toMatchObject({
      weight: 2,
      counts_to_average: false,
    });
    expect(gradeEvents([plus])[0]?.payload).toMatchObject({ weight: 2, counts_to_average: false });
    // The subject's sensor lists its grades with their weights.
    expect(
      listedGrades(items, 1)
        .get('1')
        ?.find((g) => g.grade === '+'),
    ).toMatchObject({ weight: 2, counts_to_average: false });
    expect(
      listedGrades(items, 1)
        .get('1')
        ?.find((g) => g.grade === '5'),
    ).not.toHaveProperty('counts_to_average');
    const answer = await toolAnswer(factsServer('pl', { grades: { ...gradesAsk.unknown, items } }), 'get_grades', {});
    expect(answer.text).toMatch(/, np(?: \([^)]*\))?, kategoria: Aktywność, waga: 2, [^\n]*nie liczy się do średniej/);
    expect(answer.text).toMatch(/, 5, kategoria: Aktywność, waga: 2, nauczyciel: Anna Nowak\n/);
  });

  it('says so beside a point grade of a category that does not count, and of no other', async () => {
    const items = gradeItems(
      {
        pointGrades: pointGradesResponse.parse({
          Grades: [
            { Id: 1, Grade: '7', GradeValue: 7, Category: { Id: 1 }, Subject: { Id: 1 }, AddDate: '2026-01-12 09:00:00', AddedBy: { Id: 12 } },
            { Id: 2, Grade: '17', GradeValue: 17, Category: { Id: 2 }, Subject: { Id: 1 }, AddDate: '2026-01-13 09:00:00', AddedBy: { Id: 12 } },
          ],
        }).Grades,
        pointCategories: pointCategoriesResponse.parse({
          Categories: [
            { Id: 1, Name: 'Kartkówka próbna', Weight: 2, CountToTheAverage: false, ValueTo: 10 },
            { Id: 2, Name: 'Test sprawdzający', Weight: 1, CountToTheAverage: true, ValueTo: 20 },
          ],
        }).Categories,
      },
      names,
    );
    expect(counted(items)).toEqual({ '7/10 pkt': false, '17/20 pkt': true });
    const answer = await toolAnswer(factsServer('pl', { grades: { ...gradesAsk.unknown, items } }), 'get_grades', {});
    expect(answer.text).toMatch(/, 7\/10 pkt \[punkty\], kategoria: Kartkówka próbna, waga: 2, [^\n]*nie liczy się do średniej/);
    expect(answer.text).toMatch(/, 17\/20 pkt \[punkty\], kategoria: Test sprawdzający, waga: 1, nauczyciel: Jan Kowalski\n/);
  });

  it('leaves a 0 counted where the school counts zeros (GradingSystem countZero)', () => {
    expect(counted(gradeItems(sources(true), names))).toEqual({ '0': true, '+': false, np: false, bz: false, '5': true });
  });
});
