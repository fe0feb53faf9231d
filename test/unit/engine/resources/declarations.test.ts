// Each portal resource is declared once: every declaration the resources' modules export (src/engine/resources/
// and each feature's own, src/features/<name>/resources.ts or <what>-resources.ts) is in the list (so
// docs/polling.md and the coordinator know it), no two declare one endpoint or one name, and every
// change-feed name is one the live notes list (live-notes 31); ages vary by lessons, the rest of the day and
// the night, and only the change feed has hours of its own.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../../src/features/resources.js';
import * as grades from '../../../../src/engine/resources/grades.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '../../../../src/engine/resource.js';

const CHANGE_FEED_TYPES = [
  'Grades',
  'PointGrades',
  'DescriptiveGrades',
  'TextGrades',
  'DescriptiveTextGrades',
  'BehaviourGrades',
  'BehaviourGrades/Points',
  'Attendances',
  'HomeWorks',
  'HomeWorkAssignments',
  'ParentTeacherConferences',
  'Calendars/ClassFreeDays',
  'Calendars/TeacherFreeDays',
  'Calendars/SchoolFreeDays',
  'Calendars/Substitutions',
  'SchoolNotices',
  'Notes',
  'LuckyNumbers',
  'Timetables',
  'Messages',
];

/** The declarations a module exports (values with a schedule and endpoints). */
function exported(module: Record<string, unknown>): Resource[] {
  return Object.values(module).filter((v): v is Resource => typeof v === 'object' && v !== null && 'endpoints' in v && 'fresh' in v);
}

/** The first value of `list` that stands twice in it. */
function twice(list: readonly string[]): string | undefined {
  return list.find((value, i) => list.indexOf(value) !== i);
}

describe('the resources, declared once', () => {
  it('lists every declaration the modules export, each once', async () => {
    const src = join(import.meta.dirname, '../../../../src');
    const files = [
      ...readdirSync(join(src, 'engine', 'resources')).map((f) => `engine/resources/${f}`),
      ...readdirSync(join(src, 'features'), { recursive: true })
        .map(String)
        .filter((f) => /[/-]resources\.ts$/.test(f))
        .map((f) => `features/${f}`),
    ].filter((f) => f.endsWith('.ts'));
    expect(files).toEqual(
      expect.arrayContaining(['engine/resources/school.ts', 'features/agenda/resources.ts', 'features/timetable/kindergarten-resources.ts']),
    );
    const modules = await Promise.all(files.map((f) => import(join(src, f)) as Promise<Record<string, unknown>>));
    const all = modules.flatMap(exported);
    expect(all.filter((r) => !RESOURCES.includes(r)).map((r) => r.name)).toEqual([]);
    expect(RESOURCES.filter((r, i) => RESOURCES.indexOf(r) !== i).map((r) => r.name)).toEqual([]);
    expect(RESOURCES.length).toBe(all.length);
  });

  it('declares no endpoint and no name twice', () => {
    expect(twice(RESOURCES.flatMap((r) => r.endpoints))).toBeUndefined();
    expect(twice(RESOURCES.map((r) => r.name))).toBeUndefined();
  });

  it('fails on a second declaration of an endpoint', () => {
    const copy = { ...grades.GRADES, name: 'Grades again' };
    expect(twice([...RESOURCES, copy].flatMap((r) => r.endpoints))).toBe('Grades');
  });

  it("gives ages by lessons, the rest of the day and the night; hours of their own only to the change feed's PushChanges", () => {
    for (const r of RESOURCES) expect(Object.keys(r.fresh).sort(), r.name).toEqual(['day', 'lessons', 'night']);
    expect(RESOURCES.filter((r) => r.hours !== undefined).map((r) => [r.name, r.hours])).toEqual([['PushChanges', '07:00-21:00']]);
  });

  it("names only the change feed's own types (live-notes 31)", () => {
    expect(RESOURCES.flatMap((r) => r.changeFeed ?? []).filter((type) => !CHANGE_FEED_TYPES.includes(type))).toEqual([]);
  });
});
