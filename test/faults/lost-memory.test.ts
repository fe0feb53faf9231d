// A lost event memory (issue 64, point 7): seen/<child>.json deleted, emptied, `{}` or garbled while the
// bridge was stopped. A memory started afresh fires nothing (no flood of old events), so the grade made
// meanwhile was swallowed without a word. Now the memory comes back from its last good copy: the grade
// fires once, nothing older fires, and the log says what happened to the memory. And (interface 18.4) every
// other file the bridge keeps beside the event memory cut short while it was stopped (the achievements record, the
// figures, the session, the identity, the kept states, the subject keys, the MQTT session, ...): nothing repeated,
// nothing lost, the grade made meanwhile fires once.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { FaultTable } from '../helpers/faults.js';
import { MIN, worldFor } from '../helpers/faults-world.js';
import { tempDir } from '../helpers/temp.js';

const table = new FaultTable('Fault table: event memory lost while stopped');
afterAll(() => table.print());

/**
 * A bridge on a data folder of its own, stopped after two passes (its event memory written). The second is the
 * fast pass 3 minutes after the start, which reads the rows the first left for later (the library, the school's
 * files, the sent box): from then on the memory and its last good copy hold every kind. Its ids and records were
 * the same after 3, 5, 10 and 25 minutes (the later passes, the 20-minute one too, read again what these two read).
 */
async function stoppedAfterTwoPasses(ctx: TestContext) {
  const w = await worldFor(ctx);
  const dataDir = await tempDir();
  const first = await w.firstPass({ dataDir });
  await first.advanceMinutes(5);
  await first.stop();
  return { w, dataDir };
}

/**
 * How long the restarted bridge reads on: a minute past its pass 20 minutes after the start, the first to read
 * every list again (attendances, homework too), so that nothing older fires on a second read either.
 */
const AFTER_START = 21;

const LOSSES: [string, string, (path: string) => Promise<void>][] = [
  ['deleted', 'missing', (path) => rm(path)],
  ['emptied', 'unreadable', (path) => writeFile(path, '')],
  ['{}', 'empty', (path) => writeFile(path, '{}')],
  ['garbled', 'unreadable', (path) => writeFile(path, '{"ids":{"grade":["grade:1", tr')],
];

describe.concurrent('an event memory lost while the bridge was stopped', () => {
  for (const [how, why, lose] of LOSSES) {
    it(`${how}: the grade made meanwhile fires once, nothing older fires, and the log says so`, async (ctx) => {
      const { w, dataDir } = await stoppedAfterTwoPasses(ctx);

      await lose(join(dataDir, 'seen', 'ania.json'));
      w.addGrade();
      const h = await w.startApp({ dataDir });
      await h.runUntil(() => h.state('ania', 'newest_grade') === '3', 'the first pass after the start', 1 * MIN);
      await h.advanceMinutes(AFTER_START);

      expect(w.gradeEvents()).toBe(1);
      const events = h.rec.messages.filter((m) => m.topic.includes('/event/'));
      expect(events.map((m) => m.topic)).toEqual([`${h.base}/ania/event/grade`]);
      const told = h.logs.matching(/last good copy/);
      expect(told).toHaveLength(1);
      expect(JSON.parse(told[0]!)).toMatchObject({ level: 'warn', why });
      expect(h.state('ania', 'problem')).toBe('OFF');

      table.record({
        fault: `seen/<child>.json ${how} while stopped`,
        survived: true,
        lost: false,
        sentTwice: events.length > 1,
        secretLeaked: (await h.leaks()).length > 0,
      });
    }, 60_000);
  }

  it('every other file beside it cut short: the grade made meanwhile fires once, nothing older fires', async (ctx) => {
    const { w, dataDir } = await stoppedAfterTwoPasses(ctx);

    // Each JSON file of the folder but the event memory and its copy, cut in half (a disk error, a partial restore).
    const files = (await readdir(dataDir, { recursive: true })).filter((f) => f.endsWith('.json') && !f.startsWith('seen'));
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      const text = await readFile(join(dataDir, file), 'utf8');
      await writeFile(join(dataDir, file), text.slice(0, Math.floor(text.length / 2)));
    }
    w.addGrade();
    const h = await w.startApp({ dataDir });
    await h.runUntil(() => h.state('ania', 'newest_grade') === '3', 'the first pass after the start', 1 * MIN);
    await h.advanceMinutes(AFTER_START);

    expect(w.gradeEvents()).toBe(1);
    const events = h.rec.messages.filter((m) => m.topic.includes('/event/'));
    expect(events.map((m) => m.topic)).toEqual([`${h.base}/ania/event/grade`]);
    table.record({
      fault: `${files.length} files beside the event memory cut short while stopped`,
      survived: h.state('ania', 'problem') === 'OFF',
      lost: w.gradeEvents() === 0,
      sentTwice: events.length > 1,
      secretLeaked: (await h.leaks()).length > 0,
    });
  }, 60_000);
});
