// The lessons-held feature: next_test, lesson_topics and catch_up, rendered from the school rules.
import { describe, expect, it } from 'vitest';
import { lessonsHeldFeature, renderCatchUp, renderLessonTopics, renderNextTest } from '../../../../src/features/lessons-held/lessons-held.js';
import type { AgendaItem } from '../../../../src/rules/agenda.js';
import { entityTable } from '../../../helpers/entities.js';

/** How long a topic in a list may be (docs/entities.md). */
const TOPIC_MAX_IN_ATTRIBUTES = 300;

const test: AgendaItem = {
  key: 't1',
  kind: 'test',
  date: '2026-11-25',
  until: null,
  time: null,
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
