// The feed route: `/calendar/<child>/<name>.ics` answered from what the bridge holds; an unknown child
// or feed is 404, other paths are left to the other routes.
import { describe, expect, it } from 'vitest';
import { feedRoutes } from '../../../src/web/feeds.js';
import type { FeedName } from '../../../src/school/calendar-feeds.js';
import type { WebData, WebRequest } from '../../../src/web/types.js';

const asked: [string, FeedName][] = [];
const data: WebData = {
  language: 'pl',
  children: () => [],
  onChange: () => () => undefined,
  feed: (child, name) => {
    asked.push([child, name]);
    return child === 'ania' ? { body: `BEGIN:VCALENDAR ${name}`, modifiedAt: 1_700_000_000_000 } : undefined;
  },
  healthy: () => true,
  now: () => 0,
};

const get = (...segments: string[]) => {
  const request: WebRequest = { method: 'GET', segments, query: new URLSearchParams(), headers: {}, ingressPath: '', trusted: true, via: 'query' };
  for (const route of feedRoutes(data)) {
    const answer = route(request);
    if (answer !== undefined) return answer;
  }
  return undefined;
};

describe('feed route', () => {
  it('answers each feed of a known child as text/calendar with its Last-Modified', () => {
    expect(get('calendar', 'ania', 'free-days.ics')).toEqual({
      status: 200,
      headers: { 'content-type': 'text/calendar; charset=utf-8' },
      body: 'BEGIN:VCALENDAR free-days',
      modifiedAt: 1_700_000_000_000,
    });
    expect(get('calendar', 'ania', 'lessons.ics')?.body).toBe('BEGIN:VCALENDAR lessons');
    expect(get('calendar', 'ania', 'agenda.ics')?.body).toBe('BEGIN:VCALENDAR agenda');
  });

  it('is 404 for an unknown child, an unknown feed or a path of another shape, without asking for a feed', () => {
    asked.length = 0;
    for (const segments of [['calendar', 'ania', 'grades.ics'], ['calendar', 'ania', 'lessons'], ['calendar', 'ania'], ['calendar'], ['calendar', 'ania', 'lessons.ics', 'x']]) {
      expect(get(...segments)?.status, segments.join('/')).toBe(404);
    }
    expect(asked).toEqual([]);
    expect(get('calendar', 'bartek', 'lessons.ics')).toMatchObject({ status: 404, body: 'Not found\n' });
  });

  it('leaves other paths to the other routes', () => {
    expect(get()).toBeUndefined();
    expect(get('health')).toBeUndefined();
  });
});
