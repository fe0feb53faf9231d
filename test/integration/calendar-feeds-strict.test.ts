// Every calendar feed the simulator's three children get (two pupils and the kindergarten child), fetched from the
// real bridge's web server as a calendar app fetches it and read by a strict RFC 5545 parser beside ical.js
// (interface 17.3): each line CRLF-ended, the last one too; never a calendar without a component; days off
// transparent; the refresh interval every parser reads. A list the child's account does not have (the kindergarten
// child's agenda) is no calendar feed at all: not served, not linked on the board.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { CALENDAR_FEED_NAMES } from '../../src/rules/calendar-feeds.js';
import { calendarFeedKey, loadOrCreateToken } from '../../src/outputs/web/token.js';
import { parseCalendarFeed, strictCalendar } from '../helpers/ics.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';

const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const CHILDREN = ['ania', 'jan', 'zofia'];

describe("the demo family's calendar feeds, read strictly", () => {
  it('are each a calendar a strict parser reads whole, and the kindergarten child has no agenda calendar feed', async () => {
    const port = await freePort();
    const h = await school.start({ accounts: DEMO_ACCOUNTS.map(({ login, password }) => ({ login, password })), http: { port }, language: 'pl' });
    await h.runUntil(() => CHILDREN.every((c) => h.state(c, 'timetable_today') !== undefined), 'the first pass of each child');
    const token = (await loadOrCreateToken(h.dataDir)).value;
    const served: string[] = [];
    for (const child of CHILDREN) {
      for (const name of CALENDAR_FEED_NAMES) {
        const answer = await send(port, `/calendar/${child}/${name}.ics?key=${calendarFeedKey(token, child, name)}`);
        if (child === 'zofia' && name === 'agenda') {
          expect(answer.status).toBe(404);
          continue;
        }
        expect({ calendarFeed: `${child}/${name}`, status: answer.status }).toEqual({ calendarFeed: `${child}/${name}`, status: 200 });
        served.push(`${child}/${name}`);
        const text = answer.body;
        const { properties, components } = strictCalendar(text);
        expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
        expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
        const events = parseCalendarFeed(text).events;
        expect(components).toEqual({ VTIMEZONE: 1, VEVENT: events.length });
        expect(events.length).toBeGreaterThan(0);
        expect([properties['REFRESH-INTERVAL'], properties['X-PUBLISHED-TTL']]).toEqual([[3600], ['PT1H']]);
        // Days off are transparent; a lesson or a test takes its time.
        expect(new Set(events.map((e) => e.transp))).toEqual(new Set([name === 'free-days' ? 'TRANSPARENT' : null]));
      }
    }
    expect(served).toHaveLength(8);
    // The board links only the calendar feeds served: the kindergarten child's card has no agenda calendar.
    const board = JSON.parse((await send(port, `/api/board?token=${token}`)).body) as {
      model: { children: { calendarFeeds: { path: string }[] }[] };
    };
    expect(board.model.children.flatMap((c) => c.calendarFeeds.map((f) => f.path.replace(/^calendar\//, '').replace(/\.ics$/, '')))).toEqual(served);
  });
});
