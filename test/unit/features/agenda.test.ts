// The agenda feature: upcoming_tests and homework_due, rendered from the school rules' lists.
import { describe, expect, it } from 'vitest';
import { agenda, renderHomeworkDue, renderUpcomingTests } from '../../../src/features/agenda.js';
import { upcomingTests, type AgendaItem } from '../../../src/school/agenda.js';
import type { HomeworkItem } from '../../../src/school/homework.js';
import { entityTable } from '../../helpers/entities.js';

const entry = (key: string, kind: AgendaItem['kind'], date: string, subject: string | null, content: string): AgendaItem => ({
  key,
  kind,
  date,
  until: null,
  time: null,
  subject,
  category: null,
  content,
  teacher: null,
});

describe('agenda feature', () => {
  it('declares homework_due, upcoming_tests and their events', () => {
    expect(entityTable(agenda.entities)).toEqual([
      ['homework_due', 'sensor', true],
      ['upcoming_tests', 'sensor', true],
      ['homework', 'event', false],
      ['test', 'event', false],
    ]);
  });

  it('counts the tests ahead and lists the other entries beside, without their keys', () => {
    const items = [entry('e1', 'test', '2026-11-25', 'Matematyka', 'Ułamki'), entry('e2', 'trip', '2026-11-26', null, 'Kopalnia Soli'), entry('e3', 'test', '2026-11-10', 'Polski', 'Lektura')];
    const state = renderUpcomingTests(upcomingTests(items, '2026-11-23'));
    expect(state.state).toBe('1');
    expect(state.attributes.items).toEqual([{ kind: 'test', date: '2026-11-25', until: null, time: null, subject: 'Matematyka', category: null, content: 'Ułamki', teacher: null }]);
    expect(state.attributes.other?.map((o) => [o.kind, o.subject, o.content])).toEqual([['trip', null, 'Kopalnia Soli']]);
  });

  it('counts the homework due on its day', () => {
    const homework: HomeworkItem = { key: 'h1', subject: 'Polski', topic: 'Wypracowanie', text: null, teacher: null, assigned: '2026-11-20', due: '2026-11-24', attachments: [], done: false };
    const state = renderHomeworkDue({ date: '2026-11-24', items: [homework] });
    expect(state.state).toBe('1');
    expect(state.attributes).toEqual({ date: '2026-11-24', items: [{ subject: 'Polski', topic: 'Wypracowanie', text: null, teacher: null, assigned: '2026-11-20', due: '2026-11-24', attachments: [], done: false }] });
  });
});
