// Walks over days inside one generated world (interface 19.1), a file of their own so that they run beside the worlds
// of worlds.test.ts rather than after them (the unit tier's longest file, test:quick's wall time). Each walk's world is
// run by the real bridge in process (drive.ts runWorld), then taken by the running bridge's own timers to a moment a
// night or more on, and every property of worlds.test.ts (HELD) is held again there.
//
// Budget: four worlds of each walk, about 8 s of CPU on the fifteenth round's last machine (`npx vitest run
// test/unit/worlds/walks.test.ts`); `npm run worlds -- --walks 40` walks more.
import { afterAll, beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import { PATH, SEED, WALKS, Worlds } from '../../helpers/worlds/suite.js';
import { worldArb, type World } from '../../helpers/worlds/world.js';
import { addDays } from '../../helpers/reference/dates.js';

const worlds = new Worlds();
beforeAll(() => worlds.start());
afterAll(() => worlds.stop());

/**
 * Walks over days inside one world (interface 19.1): the running bridge taken on by its own timers, each pass on the way
 * run to its end, and every door held again where the walk ends, to the portal as it answers that day. A few worlds
 * each (WORLDS_WALKS): a walk costs the passes of its hours, so a failing one is not shrunk; the seed and path its report
 * names replay it (WORLDS_SEED=<seed> WORLDS_PATH=<path> npx vitest run test/unit/worlds/walks.test.ts -t "<walk>").
 */
describe('a generated world walked over days by its running bridge', () => {
  const walks: { name: string; worlds: fc.Arbitrary<{ world: World; to: string }> }[] = [
    {
      name: 'a night: from the evening to the next morning',
      worlds: worldArb.map((world) => ({ world: { ...world, time: '21:30' }, to: `${addDays(world.date, 1)}T07:30:00+01:00` })),
    },
    {
      name: 'a clock change: the night the clocks go back or forward',
      worlds: fc
        .tuple(worldArb, fc.constantFrom(['2026-10-24', '2026-10-25T07:30:00+01:00'], ['2027-03-27', '2027-03-28T07:30:00+02:00']))
        .map(([world, [date, to]]) => ({ world: { ...world, date, time: '21:30' }, to })),
    },
    {
      name: 'a new school year: the night before 1 September to its first morning',
      worlds: worldArb.map((world) => ({ world: { ...world, date: '2027-08-31', time: '21:30' }, to: '2027-09-01T07:30:00+02:00' })),
    },
  ];
  for (const { name, worlds: walked } of walks)
    it(
      `holds every property after ${name}`,
      async () => {
        await fc.assert(
          fc.asyncProperty(walked, async ({ world, to }) => {
            const found = await worlds.walked(world, to);
            if (found.length > 0) throw new Error(`walked to ${to}:\n${found.slice(0, 12).join('\n')}`);
          }),
          { numRuns: WALKS, seed: SEED, endOnFailure: true, ...(PATH === undefined ? {} : { path: PATH }) },
        );
      },
      WALKS * 30_000,
    );
});
