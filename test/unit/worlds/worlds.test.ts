// Told true in every world (interface 18.1): seeded generated families (test/helpers/worlds/world.ts), each served by the
// simulator and read by the real bridge in process (drive.ts), every door read (doors.ts) and held to the features'
// typed values (properties.ts). A failure prints the shrunk world, its seed and path, and the command that replays it
// alone. `npm run worlds -- --runs 5000` runs thousands.
//
// Budget: the 300 worlds of `npm test` are this file's own share of the suite: at most 115 s of CPU (measured with
// `/usr/bin/time -v npx vitest run test/unit/worlds/worlds.test.ts`: 106.1 s user and 8.4 s system, two failing
// properties' shrinks of up to 60 worlds each included; a world's first pass, the news and a person's refresh against
// the simulator in process cost about 0.15 s of CPU a child, reading its doors 0.03 s). Slower than 20 s: every world is
// two real passes of one to three children.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { PROPERTIES } from '../../helpers/worlds/properties.js';
import { RUNS, Worlds } from '../../helpers/worlds/suite.js';

const worlds = new Worlds();
beforeAll(() => worlds.start());
afterAll(() => worlds.stop());

describe(`in ${RUNS} generated worlds`, () => {
  // The first property runs the worlds (its timeout is theirs: 300 worlds, each about 0.3 s, beside other files); those
  // after it read the worlds' doors kept.
  for (const [i, property] of PROPERTIES.entries()) it(property.name, () => worlds.check(property), i === 0 ? RUNS * 2_000 : 120_000);
});
