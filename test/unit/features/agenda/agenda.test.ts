// The agenda feature: upcoming_tests and homework_due, rendered from the school rules' lists.
import { describe, expect, it } from 'vitest';
import {
  agenda,
  renderHomeworkDue,
  renderUpcomingTests,
  type agendaEvent,
  type homeworkEvent,
  type testEvent,
} from '../../../../src/features/agenda/agenda.js';
import { agendaEvents, testEvents, upcomingTests, type AgendaItem } from '../../../../src/rules/agenda.js';
import { homeworkEvents, type HomeworkItem } from '../../../../src/rules/homework.js';
import type { Events } from '../../../../src/features/kit/contract.js';
import { entityTable } from '../../../helpers/entities.js';

const entry = (key: string, kind: AgendaItem['kind'], date: string, subject: string | null, content: string): AgendaItem => ({
  key,
  kind,
  date,
  until: null,
  time: null,
  time_to: null,
  subject,
  category: null,
  content,
  teacher: null,
});

describe('agenda feature', () => {
  it('declares homework_due, upcoming_tests and their events', () => {
    expect(entityTable(agenda.entities)).toEqual([
      ['homework_due', 'sensor', true],
      ['homework_upcoming', 'sensor', true],
      ['upcoming_tests', 'sensor', true],
      ['homework', 'event', false],
      ['test', 'event', false],
      ['agenda', 'event', false],
    ]);
  });

  it('counts the tests ahead and lists the other entries beside, without their keys', () => {
    const items = [
      entry('e1', 'test', '2026-11-25', 'Matematyka', 'Ułamki'),
      entry('e2', 'trip', '2026-11-26', null, 'Kopalnia Soli'),
      entry('e3', 'test', '2026-11-10', 'Polski', 'Lektura'),
    ];
    const state = renderUpcomingTests(upcomingTests(items, '2026-11-23'));
    expect(state.state).toBe('1');
    expect(state.attributes.items).toEqual([
      {
        kind: 'test',
        date: '2026-11-25',
        until: null,
        time: null,
        time_to: null,
        subject: 'Matematyka',
        category: null,
        content: 'Ułamki',
        teacher: null,
      },
    ]);
    expect(state.attributes.other?.map((o) => [o.kind, o.subject, o.content])).toEqual([['trip', null, 'Kopalnia Soli']]);
  });

  it('counts nothing of a list the portal refused or has not answered: unknown, never 0', () => {
    expect(renderUpcomingTests(null)).toEqual({ state: null, attributes: {} });
    expect(renderHomeworkDue(null)).toEqual({ state: null, attributes: {} });
  });

  it('counts the homework due on its day', () => {
    const homework: HomeworkItem = {
      key: 'h1',
      subject: 'Polski',
      topic: 'Wypracowanie',
      text: null,
      teacher: null,
      assigned: '2026-11-20',
      due: '2026-11-24',
      attachments: [],
      done: false,
    };
    const state = renderHomeworkDue({ date: '2026-11-24', items: [homework] });
    expect(state.state).toBe('1');
    expect(state.attributes).toEqual({
      date: '2026-11-24',
      items: [
        {
          subject: 'Polski',
          topic: 'Wypracowanie',
          text: null,
          teacher: null,
          assigned: '2026-11-20',
          due: '2026-11-24',
          attachments: [],
          done: false,
        },
      ],
    });
  });

  it('fires one event per item by what it is: a test a test event, a trip an agenda event, an assignment a homework event, by the fields their entities declare', () => {
    const homework: HomeworkItem = {
      key: 'homework:1',
      subject: 'Polski',
      topic: 'Wypracowanie',
      text: null,
      teacher: null,
      assigned: '2026-11-20',
      due: '2026-11-24',
      attachments: [],
      done: false,
    };
    const items = [
      entry('agenda:1', 'test', '2026-11-25', 'Matematyka', 'Sprawdzian: ułamki'),
      entry('trip:2', 'trip', '2026-11-26', null, 'Kopalnia Soli'),
    ];
    const events: Events<typeof homeworkEvent | typeof testEvent | typeof agendaEvent> = {
      homework: homeworkEvents([homework], '2026-11-23'),
      test: testEvents(items, '2026-11-23'),
      agenda: agendaEvents(items, '2026-11-23'),
    };
    expect(events.homework?.map((e) => e.id)).toEqual(['homework:1']);
    expect(events.homework?.[0]?.payload).toMatchObject({ kind: 'homework', subject: 'Polski', due: '2026-11-24' });
    expect(events.test?.map((e) => e.id)).toEqual(['agenda:1']);
    expect(events.agenda?.map((e) => e.id)).toEqual(['trip:2']);
    expect(events.agenda?.[0]?.payload).toEqual({
      kind: 'trip',
      date: '2026-11-26',
      until: null,
      time: null,
      time_to: null,
      subject: null,
      category: null,
      description: 'Kopalnia Soli',
      teacher: null,
    });
    const wrong: Events<typeof homeworkEvent> = {
      // @ts-expect-error -- a trip is not homework: the homework event takes assignments only
      homework: agendaEvents(items, '2026-11-23'),
    };
    expect(wrong.homework).toHaveLength(1);
    const test = events.test?.[0]?.payload;
    expect(test).toMatchObject({ subject: 'Matematyka', kind: 'test', description: 'Sprawdzian: ułamki' });
    // @ts-expect-error -- a test event says `description`, not the agenda's `content`
    expect(test?.content).toBeUndefined();
  });
});
