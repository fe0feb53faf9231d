// Told true in every world (interface 18.1): seeded generated families (test/helpers/worlds/world.ts), each served by the
// simulator and read by the real bridge in process (drive.ts), every door read (doors.ts) and held to the features'
// typed values (properties.ts). A failure prints the shrunk world, its seed and path, and the command that replays it
// alone. `npm run worlds -- --runs 5000` runs thousands.
//
// Budget: the worlds' files together (this one, planted, rendered, found, and test/integration/worlds-broker.test.ts)
// are their own share of the suite, at most 90 s of CPU: measured 88.3 s (80.6 user, 7.7 system) with
// `/usr/bin/time -v npx vitest run test/unit/worlds test/integration/worlds-broker.test.ts` beside other work, this file
// about 50 s of it. A world costs its bridge's passes: a child's first pass about 80 ms of CPU in process, a refresh
// 45 ms, its doors 20 ms; the file's start 5 s. Slower than 20 s: 300 worlds of real passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD, RANDOM_RUNS, RANDOM_SEED, RUNS, SEED, Worlds } from '../../helpers/worlds/suite.js';
import { ask, listedTools, mcpServer } from '../../helpers/worlds/doors.js';
import { worldArb } from '../../helpers/worlds/world.js';
import { ASK_TEXT } from '../../../src/i18n/ask-text.js';
import fc from 'fast-check';

const worlds = new Worlds();
beforeAll(() => worlds.start());
afterAll(() => worlds.stop());

describe(`in ${RUNS} generated worlds`, () => {
  // The first property runs the worlds (its timeout is theirs: 300 worlds, each about 0.3 s, beside other files); those
  // after it read the worlds' doors kept.
  for (const [i, property] of HELD.entries()) it(property.name, () => worlds.check(property), i === 0 ? RUNS * 2_000 : 120_000);

  it('carry every shape the properties hold something about (none holds vacuously)', () => {
    expect([...worlds.shapes].sort()).toEqual(
      expect.arrayContaining([
        'change: cancelled',
        'change: substitution by another subject',
        'child: first-grader',
        'child: kindergarten',
        'child: pupil',
        'event: agenda',
        'event: grade',
        'event: notice',
        'event: plan_change',
        'event: test',
        'family login: several children',
        'grade: final',
        'grade: final_proposal',
        'grade: semester_proposal',
        'refused: Attendances',
        'records: a split slot whose first entry is the other group',
        'records: an agenda entry ending after its hour',
        'records: an unread message without a subject',
        'records: a lesson missed over 14 days ago',
        'records: no lucky number',
        'records: a lesson 0',
        'records: a lesson moved away from its slot',
        'records: a mark that does not count',
      ]),
    );
  });
});

// Printed before the worlds run, so that a failure among them replays: WORLDS_SEED=<this seed> WORLDS_PATH=<its path>.
console.info(`worlds: the random seed of this run is ${RANDOM_SEED} (WORLDS_RANDOM_SEED=${RANDOM_SEED} runs these worlds again)`);

describe(`in ${RANDOM_RUNS} worlds of this run's random seed ${RANDOM_SEED}`, () => {
  for (const [i, property] of HELD.entries())
    it(property.name, () => worlds.check(property, { seed: RANDOM_SEED, runs: RANDOM_RUNS }), i === 0 ? RANDOM_RUNS * 2_000 : 120_000);
});

describe('a restart of a generated world with news', () => {
  // The sent box and the school's files wait for a start's second pass: a restart tells what the last run read of them
  // from its first pass on (interface 18.1), and its first listing of Assist's tools names every child.
  it('knows the sent messages from its first pass, and lists every child from the first listing on', async () => {
    const withNews = worldArb.filter((w) => w.children.some((c) => c.news.length > 0));
    await fc.assert(
      fc.asyncProperty(withNews, async (world) => {
        const run = await worlds.run(world);
        const again = await worlds.restarted(world, 10);
        const server = mcpServer({ world, ...again });
        const w = ASK_TEXT[world.language];
        const found = [...again.troubles.map((t) => `log: ${t.slice(0, 300)}`)];
        for (const c of run.children.filter((child) => child.refreshed)) {
          const sent = (await ask(server, 'get_messages', { child: c.id })).text
            .split('\n')
            .filter((l) => l.startsWith(`${w.messages.sent}: ${w.common.unknown}`));
          found.push(...sent.map((l) => `${c.id} after the restart: "${l}"`));
        }
        const listed = await listedTools(server);
        for (const c of again.snapshot.children()) if (!listed.includes(c.name?.split(' ')[0] ?? '?')) found.push(`tools/list names no ${c.name}`);
        if (found.length > 0) throw new Error(found.join('\n'));
      }),
      { numRuns: 6, seed: SEED },
    );
  }, 120_000);
});
