import { describe, expect, it } from 'vitest';
import { gradesResponse } from '../../../../src/portal/schemas/grades.js';
import { capAttributes } from '../../../../src/features/kit/render.js';
import { gradeEvents, gradeItems } from '../../../../src/rules/grades.js';
import { addDays } from '../../../../src/util/time.js';
import { names } from '../../rules/fixtures.js';

const bytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

/** A busy school year: 12 subjects, about 3 grades a school day, with Polish comments. */
function schoolYear() {
  const raw: unknown[] = [];
  let id = 1;
  for (let day = 0; day < 280; day++) {
    const date = addDays('2025-09-01', day);
    for (let k = 0; k < 3; k++) {
      raw.push({
        Id: id++,
        Grade: ['5', '4+', '3-', '6', 'np'][id % 5],
        Subject: { Id: (id % 4) + 1 },
        Category: { Id: 1 },
        AddedBy: { Id: 10 },
        Date: date,
        AddDate: `${date} 1${k}:00:00`,
        Semester: day < 140 ? 1 : 2,
      });
    }
  }
  return gradesResponse.parse({ Grades: raw }).Grades;
}

describe('capAttributes', () => {
  it('leaves small attributes alone', () => {
    const attrs = { a: 1, list: [1, 2, 3] };
    expect(capAttributes(attrs)).toBe(attrs);
  });

  it('keeps a full school year of grades under 16 KB, newest kept, and says what it cut', () => {
    const items = gradeItems({ grades: schoolYear() }, names);
    // As the event gate fires them: with their type.
    const grades = gradeEvents(items).map((e) => ({ event_type: 'grade', ...e.payload }));
    const attrs = { count: grades.length, grades };
    expect(bytes(attrs)).toBeGreaterThan(150_000);

    const capped = capAttributes(attrs);
    expect(bytes(capped)).toBeLessThanOrEqual(16_000);
    const kept = capped.grades as typeof grades;
    expect(kept.length).toBeGreaterThan(10);
    expect(kept[0]).toEqual(grades[0]);
    expect(kept.at(-1)).toEqual(grades[kept.length - 1]);
    expect(capped).toMatchObject({ count: grades.length, truncated: true, omitted: { grades: grades.length - kept.length } });
  });

  it('trims the biggest list first and keeps the smaller ones whole', () => {
    const big = Array.from({ length: 2000 }, (_, i) => ({ i, text: 'ąęł'.repeat(5) }));
    const small = [1, 2, 3];
    const capped = capAttributes({ big, small }, 4000);
    expect(bytes(capped)).toBeLessThanOrEqual(4000);
    expect(capped.small).toEqual(small);
    expect((capped.big as unknown[]).length).toBeGreaterThan(0);
  });

  it('cuts an over-long text when there is no list to trim', () => {
    const capped = capAttributes({ text: 'x'.repeat(50_000), date: '2026-03-10' });
    expect(bytes(capped)).toBeLessThanOrEqual(16_000);
    expect(capped.date).toBe('2026-03-10');
    expect(capped.truncated).toBe(true);
    expect((capped.text as string).endsWith('…')).toBe(true);
  });

  it('gives up on details rather than go over when nothing can be trimmed', () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]));
    expect(capAttributes(many)).toEqual({ truncated: true });
  });
});
