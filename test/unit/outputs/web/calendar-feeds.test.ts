// The calendar feed route: `/calendar/<child>/<name>.ics` answered from what the bridge holds; an unknown child
// or calendar feed is 404, other paths are left to the other routes. A calendar feed's text is made again only when the
// content the memory keeps changed.
import { describe, expect, it } from 'vitest';
import { CalendarFeedTexts, calendarFeedRoute } from '../../../../src/outputs/web/calendar-feeds.js';
import { WebSnapshot } from '../../../../src/outputs/web/snapshot.js';
import type { CalendarFeedName } from '../../../../src/rules/calendar-feeds.js';
import type { WebData, WebRequest } from '../../../../src/outputs/web/types.js';

const asked: [string, CalendarFeedName][] = [];
const data: WebData = {
  language: 'pl',
  children: () => [],
  onChange: () => () => undefined,
  calendarFeedSource: (child, name) => {
    asked.push([child, name]);
    return child === 'ania' ? { body: Buffer.from(`BEGIN:VCALENDAR ${name}`), modifiedAt: 1_700_000_000_000 } : undefined;
  },
  healthy: () => true,
  now: () => 0,
};

const get = (...segments: string[]) => {
  const request: WebRequest = { method: 'GET', segments, query: new URLSearchParams(), headers: {}, ingressPath: '', trusted: true, via: 'query' };
  return calendarFeedRoute(data)(request);
};

describe('calendar feed route', () => {
  it('answers each calendar feed of a known child as text/calendar with its Last-Modified', () => {
    expect(get('calendar', 'ania', 'free-days.ics')).toEqual({
      status: 200,
      headers: { 'content-type': 'text/calendar; charset=utf-8' },
      body: Buffer.from('BEGIN:VCALENDAR free-days'),
      modifiedAt: 1_700_000_000_000,
    });
    expect(get('calendar', 'ania', 'lessons.ics')?.body?.toString()).toBe('BEGIN:VCALENDAR lessons');
    expect(get('calendar', 'ania', 'agenda.ics')?.body?.toString()).toBe('BEGIN:VCALENDAR agenda');
  });

  it('is 404 for an unknown child, an unknown calendar feed or a path of another shape, without asking for a calendar feed', () => {
    asked.length = 0;
    for (const segments of [
      ['calendar', 'ania', 'grades.ics'],
      ['calendar', 'ania', 'lessons'],
      ['calendar', 'ania'],
      ['calendar'],
      ['calendar', 'ania', 'lessons.ics', 'x'],
    ]) {
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

describe('calendar feed texts', () => {
  it("makes a calendar feed's text again only when its content changed, once per language", () => {
    let now = 1000;
    const memory = new WebSnapshot({ language: 'pl', healthy: () => true, now: () => now });
    const publish = (text: string) =>
      memory.calendarFeed('ania', 'agenda', {
        child: 'Ania',
        entries: [
          {
            uid: 'agenda-7.ania@dziennik2mqtt',
            kind: 'test',
            when: { date: '2026-11-24', last: '2026-11-24' },
            subject: 'Matematyka',
            text,
            label: null,
            teacher: null,
          },
        ],
      });
    let made = 0;
    const texts = new CalendarFeedTexts((calendarFeed) => `text ${++made} ${calendarFeed.language} ${calendarFeed.entries.agenda[0]?.text}`);
    const text = (language: 'pl' | 'en' = 'pl') => texts.source(memory.keptCalendarFeed('ania', 'agenda'), 'agenda', language)!.body.toString();
    publish('Ułamki');
    expect(text()).toBe('text 1 pl Ułamki');
    expect(text()).toBe('text 1 pl Ułamki');
    expect(text('en')).toBe('text 2 en Ułamki');
    now = 2000;
    publish('Ułamki');
    expect(text()).toBe('text 1 pl Ułamki');
    now = 3000;
    publish('Procenty');
    expect(text()).toBe('text 3 pl Procenty');
    expect(texts.source(memory.keptCalendarFeed('ania', 'agenda'), 'agenda', 'pl')!.modifiedAt).toBe(3000);
  });
});
