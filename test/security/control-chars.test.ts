// Control characters from the portal (issue 20, item 9): a child's name with CR LF, ESC and a C1
// control must not add lines to a calendar feed, nor reach a device name, the board or a log.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { icalText } from '../../src/outputs/web/calendar-ics.js';
import { oneLine, stripControls } from '../../src/util/text.js';
import { startFaultApp } from '../helpers/faults-app.js';
import { worldFor } from '../helpers/faults-world.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
const FIRST = 'Ania\r\nX-INJECTED:1\u0085\u001b[31m';
const LAST = 'Kowalska\nBEGIN:VEVENT\r\nEND:VCALENDAR';
/** What the name must read as everywhere: one line, the controls gone, the visible text kept. */
const CLEAN_FIRST = 'Ania X-INJECTED:1[31m';

describe('control characters in portal text', () => {
  it("CR LF in a child's name: the feeds gain no line, the device name, the board and the logs are one clean line", async (ctx) => {
    const w = await worldFor(ctx);
    const child = w.sim.account(w.login).data.account.child;
    child.firstName = FIRST;
    child.lastName = LAST;
    const port = await freePort();
    w.app = await startFaultApp({ sim: w.sim, tap: w.tap, clock: w.clock, accounts: [w.account()], http: { port } });
    await w.untilFirstPass();
    const h = w.h;
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();

    for (const calendarFeed of ['lessons', 'agenda', 'free-days']) {
      const answer = await send(port, `/calendar/ania/${calendarFeed}.ics?token=${token}`);
      expect(answer.status, calendarFeed).toBe(200);
      const lines = answer.body.split('\r\n');
      // Every line is a property or a folded continuation: nothing the name carried starts a line.
      for (const line of lines.filter((l) => l !== '')) expect(line, `${calendarFeed}: ${JSON.stringify(line)}`).toMatch(/^([A-Z][A-Z0-9-]*[;:]| )/);
      expect(
        lines.filter((l) => l.startsWith('X-INJECTED') || l === 'END:VCALENDAR'),
        calendarFeed,
      ).toEqual(['END:VCALENDAR']);
      expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
      expect(answer.body.replace(/\r\n/g, ''), calendarFeed).not.toMatch(CONTROL);
      expect(
        lines.find((l) => l.startsWith('X-WR-CALNAME:')),
        calendarFeed,
      ).toContain(`X-WR-CALNAME:${CLEAN_FIRST} –`);
    }

    const config = h.rec.messages.filter((m) => m.topic.startsWith(`${h.prefix}/device/`) && m.topic.endsWith('/config') && m.text.includes('"dev"'));
    const names = config
      .map((m) => (JSON.parse(m.text) as { dev: { name?: string } }).dev.name)
      .filter((n) => n !== undefined && n !== 'dziennik2mqtt');
    // Before the first identity the device is named after the login; then after the child.
    expect(names.at(-1)).toBe(`${CLEAN_FIRST} Kowalska BEGIN:VEVENT END:VCALENDAR`);
    for (const name of names) expect(name).not.toMatch(CONTROL);

    const board = await send(port, `/?token=${token}`);
    expect(board.status).toBe(200);
    // The board calls a child by the first word of the name.
    expect(board.body).toContain('"name":"Ania"');
    // Neither raw nor as JSON escapes inside the page's data.
    expect(board.body).not.toMatch(CONTROL);
    expect(board.body).not.toMatch(/\\r|\\u001b|\\u0085|Ania\\n/);

    for (const line of h.logs.lines) expect(line).not.toMatch(CONTROL);
  });
});

describe('the text helpers', () => {
  it('stripControls keeps line feeds, makes CR LF and CR one, drops C0, DEL and C1', () => {
    expect(stripControls('a\r\nb\rc\nd\te\u0000f\u007fg\u0085h\u009fi\u001bj')).toBe('a\nb\nc\nd efghij');
    expect(stripControls('Zażółć gęślą jaźń')).toBe('Zażółć gęślą jaźń');
  });

  it('oneLine makes every line break a space', () => {
    expect(oneLine('Ania\r\n  Kowalska\u2028x\u2029y')).toBe('Ania Kowalska x y');
  });

  it('icalText escapes what RFC 5545 TEXT needs', () => {
    expect(icalText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
  });
});
