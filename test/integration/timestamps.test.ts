// Every date-time the bridge publishes is ISO 8601 with the Warsaw offset (interface section 3), never the
// portal's raw "YYYY-MM-DD HH:MM:SS": the demo's children against the simulated portal, every retained
// state and attribute on the real broker and every event walked, and each raw one named (issue 36, item 7).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { brokerHasAllFrom, retained } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A date-time as interface section 3 has it: to the minute at least, with the Warsaw offset. */
const ISO_WARSAW = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?\+0[12]:00$/;

/** Every text of a JSON value that starts like a date but is neither a date nor an ISO date-time with the offset, with its path. */
function rawTimes(value: unknown, path: string): string[] {
  if (typeof value === 'string')
    return /^\d{4}-\d{2}-\d{2}/.test(value) && !DATE.test(value) && !ISO_WARSAW.test(value) ? [`${path} = ${value}`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => rawTimes(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => rawTimes(v, `${path}.${k}`));
  return [];
}

describe('published timestamps', () => {
  it('are ISO 8601 with the Warsaw offset in every state, attribute and event of both demo children', async () => {
    const [ania, janek] = DEMO_ACCOUNTS;
    const account = school.sim.account(ania!.login);
    // News with the portal's own stamps: a grade and an announcement added now.
    account.addGrade({ subject: 5012, category: 1, grade: '5' });
    account.addNotice({ Subject: 'Dzień otwarty', Content: 'Zapraszamy w sobotę.' });
    const h = await school.start({
      accounts: [
        { login: ania!.login, password: ania!.password, id: 'ania' },
        { login: janek!.login, password: janek!.password, id: 'janek' },
      ],
    });
    const keys = ['newest_grade', 'newest_notice', 'absences_unexcused', 'last_update'];
    await h.runUntil(() => ['ania', 'janek'].every((c) => keys.every((k) => h.state(c, k) !== undefined)), 'the first passes of both children');
    // News after the first read fires events, which carry the same fields; the later reads too (the
    // files, the sent box), so every entity has its state.
    account.addGrade({ subject: 5011, category: 1, grade: '4+' });
    account.addNotice({ Subject: 'Wywiadówka', Content: 'W czwartek o 17:30.' });
    await h.advanceMinutes(45);
    await brokerHasAllFrom(h.mqtt());
    const events = h.rec.messages.filter((m) => m.topic.includes('/event/'));
    expect(events.map((m) => m.topic.split('/').at(-1))).toEqual(expect.arrayContaining(['grade', 'notice']));

    const found = await retained([`${h.base}/ania/#`, `${h.base}/janek/#`]);
    const raw: string[] = [];
    for (const [topic, text] of found) {
      let value: unknown = text;
      try {
        value = JSON.parse(text);
      } catch {
        // A plain state.
      }
      raw.push(...rawTimes(value, topic.slice(h.base.length + 1)));
    }
    for (const m of events) raw.push(...rawTimes(JSON.parse(m.text), m.topic.slice(h.base.length + 1)));
    // The walk saw the attributes the issue names.
    expect(found.get(`${h.base}/ania/newest_grade/attributes`)).toContain('"added"');
    expect(found.get(`${h.base}/ania/newest_notice/attributes`)).toContain('"created"');
    expect(found.get(`${h.base}/ania/absences_unexcused/attributes`)).toContain('"posted"');
    expect(raw).toEqual([]);
  }, 60_000);
});
