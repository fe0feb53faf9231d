// The school year within Assist's reach from what the bridge holds (interface 18.2), asked as Home Assistant's MCP
// integration asks (test/helpers/assist.ts), on the simulator's school in March: the grades of the last 300 days reach
// back to September, what is ahead in the next 60 days of one subject leaves the others out, and the topics of one
// date six weeks ago are that day's lessons. None of it asks the portal.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { mcpUrl } from '../../src/outputs/web/token.js';
import { addDays } from '../../src/util/time.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { ask, hasSdk, type AssistAnswer } from '../helpers/assist.js';

const NOW = '2027-03-17T18:30:00+01:00';
const TODAY = '2027-03-17';
const school = simulatedSchool(NOW);
const ANIA = DEMO_ACCOUNTS[0]!;

describe.skipIf(!hasSdk() && !process.env.CI)('Assist reaches the school year from what the bridge holds', () => {
  it('answers get_grades of 300 days, get_upcoming of 60 days by subject and get_lesson_topics of one date', async () => {
    // A grade of September (the simulated school's are of the last weeks), and a history test in 50 days and a maths
    // test in 45: only the history one is history's.
    const account = school.sim.account(ANIA.login);
    account.addGrade({ subject: 5015, category: 301, grade: '4', date: '2026-09-22' });
    account.addTest({ date: addDays(TODAY, 50), content: 'Średniowiecze', subject: 5015, teacher: 162005 });
    account.addTest({ date: addDays(TODAY, 45), content: 'Ułamki', subject: 5012 });
    const port = await freePort();
    const h = await school.firstPasses(['timetable_today', 'newest_grade', 'lesson_topics', 'upcoming_tests'], {
      http: { port },
      out: { write: () => true },
    });
    // The lessons held are read after a start's first pass.
    await h.advanceUntil(() => h.state('ania', 'lesson_topics') !== 'unknown' && h.state('ania', 'lesson_topics') !== undefined, 'the topics', 30);
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    const url = mcpUrl(`http://127.0.0.1:${port}`, token);
    const sixWeeksAgo = addDays(TODAY, -42);
    const before = school.sim.count();
    const [listed, ...told] = await ask(url, [
      { list: true },
      { tool: 'get_grades', arguments: { child: 'Ania', days: 300 } },
      { tool: 'get_grades', arguments: { child: 'Ania', days: 120 } },
      { tool: 'get_upcoming', arguments: { child: 'Ania', days: 60, subject: 'hist' } },
      { tool: 'get_lesson_topics', arguments: { child: 'Ania', date: sixWeeksAgo } },
    ]);
    const [year, recent, history, topics] = told as AssistAnswer[];
    // The tools say their reach.
    const tools = listed as Array<{ name: string; description: string }>;
    expect(tools.find((t) => t.name === 'get_upcoming')?.description).toContain('up to 60 days');
    // 300 days back: September's grade among them; 120 days back: not.
    expect(year?.text).toMatch(/\n- wt\. 22\.09 \(2026-09-22\), Historia, 4, /);
    expect(recent?.text).not.toContain('2026-09-22');
    // The history test in 50 days, and not the maths one in 45.
    expect(history?.text).toMatch(new RegExp(`^Ania \\(ania\\) — ${TODAY} – ${addDays(TODAY, 60)} \\(hist\\)`));
    expect(history?.text).toContain(`(${addDays(TODAY, 50)}): sprawdzian 08:55–09:40 — Historia — Średniowiecze`);
    expect(history?.text).not.toContain('Ułamki');
    // The topics of that one date, each lesson with its number and subject, and of no other day.
    const lines = (topics?.text ?? '').split('\n').filter((l) => l.startsWith('- '));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`^- śr\\. 03\\.02 \\(${sixWeeksAgo}\\) \\d+\\. \\S`));
    // Nothing was asked of the portal.
    expect(school.sim.count()).toBe(before);
  }, 180_000);
});
