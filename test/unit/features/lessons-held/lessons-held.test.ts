// The lessons-held feature: next_test, lesson_topics and catch_up, rendered from the school rules.
import { describe, expect, it } from 'vitest';
import { lessonsHeldFeature, renderCatchUp, renderLessonTopics, renderNextTest } from '../../../../src/features/lessons-held/lessons-held.js';
import type { AgendaItem } from '../../../../src/rules/agenda.js';
import { entityTable } from '../../../helpers/entities.js';
import { ASKED_AT, factsServer, toolAnswer } from '../../../helpers/mcp-tools.js';
import { REALIZATIONS } from '../../../../src/features/lessons-held/resources.js';
import { realizationsResponse } from '../../../../src/portal/schemas/realizations.js';
import { ASK_TEXT } from '../../../../src/i18n/ask-text.js';
import { silentLogger } from '../../../../src/util/log.js';
import type { Copies, Resource } from '../../../../src/engine/resource.js';
import type { Identity } from '../../../../src/engine/identity.js';
import type { AttendanceOutput } from '../../../../src/features/attendance/attendance.js';
import type { FeatureAccess } from '../../../../src/features/feature.js';

/** How long a topic in a list may be (docs/entities.md). */
const TOPIC_MAX_IN_ATTRIBUTES = 300;

const test: AgendaItem = {
  key: 't1',
  kind: 'test',
  date: '2026-11-25',
  until: null,
  time: null,
  time_to: null,
  subject: 'Matematyka',
  category: 'Sprawdzian',
  content: 'Ułamki',
  teacher: null,
};

describe('lessons-held feature', () => {
  it('declares next_test, lesson_topics and catch_up', () => {
    expect(entityTable(lessonsHeldFeature.entities)).toEqual([
      ['next_test', 'sensor', true],
      ['lesson_topics', 'sensor', true],
      ['catch_up', 'sensor', true],
    ]);
  });

  it('renders the next test at its hour (midnight when unknown) with the topics to revise', () => {
    const topics = [{ date: '2026-11-18', no: 2, subject: 'Matematyka', topic: 'Ułamki zwykłe' }];
    const at = renderNextTest({ test, topics }, '08:55');
    expect(at.state).toBe('2026-11-25T08:55:00+01:00');
    expect(at.attributes).toEqual({ subject: 'Matematyka', kind: 'Sprawdzian', description: 'Ułamki', topics });
    expect(renderNextTest({ test, topics: [] }).state).toBe('2026-11-25T00:00:00+01:00');
    expect(renderNextTest(null)).toEqual({ state: null, attributes: { subject: null, kind: null, description: null, topics: [] } });
  });

  it("shows the last lesson's topic and lists missed lessons, a long topic cut for the list", () => {
    const long = 'x'.repeat(TOPIC_MAX_IN_ATTRIBUTES + 50);
    const held = [{ date: '2026-11-20', no: 1, subject: 'Polski', topic: long }];
    const topics = renderLessonTopics(held);
    expect(topics.state).toHaveLength(255);
    expect(topics.attributes.lessons?.[0]?.topic).toHaveLength(TOPIC_MAX_IN_ATTRIBUTES);
    const missed = renderCatchUp([{ date: '2026-11-19', no: 3, subject: 'Fizyka', topic: 'Ruch' }]);
    expect(missed).toEqual({ state: '1', attributes: { lessons: [{ date: '2026-11-19', no: 3, subject: 'Fizyka', topic: 'Ruch' }] } });
  });
});

describe('the lessons missed on a date Assist asks of (get_lesson_topics)', () => {
  // Wednesday 18.11.2026 (ASKED_AT); Friday 30 October is 19 days back, beyond catch_up's fortnight.
  const old = '2026-10-30';
  const realizations = realizationsResponse.parse({
    Realizations: [
      { Id: 't1', Date: old, LessonNo: 1, Lesson: { Id: 501 }, Topic: 'Ułamki zwykłe' },
      { Id: 't2', Date: old, LessonNo: 2, Lesson: { Id: 501 }, Topic: 'Ułamki dziesiętne' },
    ],
  });
  const cache: Copies = {
    get: <T>(res: Resource<T>) => (res === REALIZATIONS ? (realizations as T) : undefined),
    peek: <T>(res: Resource<T>) => (res === REALIZATIONS ? (realizations as T) : undefined),
    refused: () => false,
    readAt: () => undefined,
  };
  const attendance: AttendanceOutput = { absences: [{ date: old, lessonNo: 1, subject: 'Matematyka' }], lessons: [], days: [old], lates: [] };

  it('tells a lesson missed 19 days back, with what was taught, on that date and over a window reaching it', async () => {
    const today = '2026-11-18';
    const result = await lessonsHeldFeature.create({} as FeatureAccess).compute!({
      cache,
      inputs: { attendance },
      identity: {} as Identity,
      now: ASKED_AT,
      today,
      asked: false,
      log: silentLogger(),
    });
    const server = factsServer('pl', { lessons_held: result.ask });
    const missed = `${ASK_TEXT.pl.lessonsHeld.catchUp}: pt. 30.10 (${old}) 1. Matematyka: Ułamki zwykłe`;
    expect((await toolAnswer(server, 'get_lesson_topics', { date: old })).text).toContain(missed);
    expect((await toolAnswer(server, 'get_lesson_topics', { days: 30 })).text).toContain(missed);
    // catch_up keeps to the last 14 days.
    expect(result.states?.catch_up?.state).toBe('0');
  });
});
