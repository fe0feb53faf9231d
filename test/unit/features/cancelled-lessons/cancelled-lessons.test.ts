// The cancelled lessons feature: its entity, the count a parent sees for a week (unknown, never 0, when the
// timetable does not cover it or the child is in a kindergarten), and its parts of the board and the dashboard.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cancelledLessons, cancelledThisWeek, renderCancelledLessons } from '../../../../src/features/cancelled-lessons/cancelled-lessons.js';
import { McpServer } from '../../../../src/outputs/mcp/server.js';
import { silentLogger } from '../../../../src/util/log.js';
import { ENTITIES } from '../../../../src/features/index.js';
import type { EntityState } from '../../../../src/engine/state.js';
import { shownChild } from '../../../../src/features/screens/parts.js';
import { dashboardYaml } from '../../../../src/outputs/homeassistant/dashboard.js';
import type { PlanChange } from '../../../../src/rules/plan-changes.js';
import type { SchoolDay } from '../../../../src/rules/schedule.js';
import { addDays, warsawInstant } from '../../../../src/util/time.js';
import { entityTable } from '../../../helpers/entities.js';
import { skipWithoutJinja } from '../../../helpers/blueprints.js';
import { shownView } from '../../../helpers/dashboard-shown.js';

const MONDAY = '2026-11-23';

function change(date: string, lessonNo: number, subject: string, kind: PlanChange['kind']): PlanChange {
  const none = { teacher: null, room: null, original_date: null, original_lesson_no: null, original_hours: null, original_teacher: null };
  return { date, lesson_no: lessonNo, hours: null, kind, subject, original_subject: subject, original_room: null, note: null, ...none };
}

/** This and next week, each day known (no lessons listed) unless `unknown`, with the given changes. */
function fortnight(changes: PlanChange[], unknown = false): SchoolDay[] {
  return Array.from({ length: 14 }, (_, i) => {
    const date = addDays(MONDAY, i);
    return { date, lessons: unknown ? undefined : [], changes: changes.filter((c) => c.date === date), freeDay: undefined, start: null, end: null };
  });
}

function shown(states: Record<string, EntityState>) {
  return shownChild(new Map(Object.entries(states)), 'pl', warsawInstant(MONDAY, '10:00'));
}

describe('cancelled lessons feature', () => {
  it('declares cancelled_lessons_week', () => {
    expect(entityTable(cancelledLessons.entities)).toEqual([['cancelled_lessons_week', 'sensor', true]]);
  });

  it("counts this week's cancelled lessons, not next week's, not a substitution", () => {
    const week = fortnight([
      change('2026-11-24', 3, 'Matematyka', 'cancelled'),
      change('2026-11-26', 5, 'Plastyka', 'cancelled'),
      change('2026-11-25', 2, 'Historia', 'substitution'),
      change('2026-12-01', 1, 'Muzyka', 'cancelled'),
    ]);
    expect(renderCancelledLessons({ fortnight: week })).toEqual({
      state: '2',
      attributes: {
        lessons: [
          { date: '2026-11-24', lesson_no: 3, subject: 'Matematyka' },
          { date: '2026-11-26', lesson_no: 5, subject: 'Plastyka' },
        ],
      },
    });
    expect(renderCancelledLessons({ fortnight: fortnight([]) }).state).toBe('0');
  });

  it('says nothing (unknown, never 0) for a week the timetable does not cover, and for a kindergarten', () => {
    expect(renderCancelledLessons({ fortnight: fortnight([], true) })).toEqual({ state: null, attributes: {} });
    expect(renderCancelledLessons({ fortnight: fortnight([]), kind: 'kindergarten' })).toEqual({ state: null, attributes: {} });
  });

  it('shows a marked count on the board only when lessons were cancelled', () => {
    expect(cancelledLessons.board?.(shown({ cancelled_lessons_week: { state: '2', attributes: { lessons: [] } } }))).toEqual({
      facts: [{ look: 'count', label: 'Odwołane', value: '2', mark: '' }],
    });
    expect(cancelledLessons.board?.(shown({ cancelled_lessons_week: { state: '0', attributes: { lessons: [] } } }))).toBeNull();
    expect(cancelledLessons.board?.(shown({ cancelled_lessons_week: { state: null, attributes: {} } }))).toBeNull();
  });

  it.skipIf(skipWithoutJinja())("says the count in the dashboard's summary line, and nothing while it is unknown", async () => {
    const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
      views: Record<string, unknown>[];
    };
    const texts = async (state: string) =>
      (await shownView(doc, 'family', { 'sensor.ania_cancelled_lessons_week': { state, attributes: {} } }, '2026-11-25T09:30:00+01:00')).flatMap(
        (s) => s.texts,
      );
    expect(await texts('2')).toContain('🚫 Odwołane lekcje w tym tygodniu: **2**');
    expect((await texts('unknown')).join('\n')).not.toContain('Odwołane');
  });

  it("tells Assist the week's cancelled lessons when asked what is ahead, says so while the week is not known, and leaves them out for a kindergarten", async () => {
    const now = warsawInstant(MONDAY, '10:00');
    const upcoming = async (weeks: SchoolDay[], kind?: 'kindergarten') => {
      const facts = new Map([['cancelled_lessons', { lessons: cancelledThisWeek({ fortnight: weeks, kind }), absent: kind === 'kindergarten' }]]);
      const child = { id: 'ania', name: 'Ania Kowalska', model: null, online: true, states: new Map(), changedAt: now };
      const server = new McpServer({
        source: { language: 'pl', now: () => now, children: () => [child], facts: () => facts },
        version: '1.0.0',
        clock: { now: () => now },
        log: silentLogger(),
      });
      const reply = (await server.answer({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_upcoming', arguments: { days: 7 } },
      })) as {
        result: { content: { text: string }[] };
      };
      return reply.result.content[0]?.text ?? '';
    };
    const told = await upcoming(fortnight([change('2026-11-24', 3, 'Matematyka', 'cancelled'), change('2026-11-25', 2, 'Historia', 'substitution')]));
    expect(told).toContain('Odwołane lekcje w tym tygodniu');
    expect(told).toContain('jutro (2026-11-24): 3. Matematyka');
    expect(told).not.toContain('2. Historia');
    expect(await upcoming(fortnight([], true))).toMatch(/Odwołane lekcje w tym tygodniu\W+jeszcze nie wiadomo/);
    expect(await upcoming(fortnight([]), 'kindergarten')).not.toContain('Odwołane');
  });
});
