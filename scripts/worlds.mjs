#!/usr/bin/env node
// `npm run worlds -- --runs 5000 [--walks 40] [--seed N] [--path P]`: the generated worlds of test/unit/worlds/worlds.test.ts,
// as many as asked, from the seed asked (the suite's own by default), and an eighth as many through the blueprints and
// the dashboard (rendered.test.ts); `--walks`: how many worlds each walk over days takes (walks.test.ts); a failure
// prints the seed and path that replay it alone.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, walks: { type: 'string' }, seed: { type: 'string' }, path: { type: 'string' } },
});
const env = { ...process.env };
if (values.runs !== undefined) env.WORLDS_RUNS = values.runs;
if (values.walks !== undefined) env.WORLDS_WALKS = values.walks;
if (values.seed !== undefined) env.WORLDS_SEED = values.seed;
if (values.path !== undefined) env.WORLDS_PATH = values.path;
const run = spawnSync(
  'npx',
  ['vitest', 'run', 'test/unit/worlds/worlds.test.ts', 'test/unit/worlds/walks.test.ts', 'test/unit/worlds/rendered.test.ts'],
  { stdio: 'inherit', env },
);
process.exit(run.status ?? 1);
