// Vitest setup file, only when D2M_CPU_PROFILE names a folder (vitest.config.ts): a CPU profile of each test
// file's own process, its imports, hooks and tests, written there as <file>.cpuprofile when the file ends
// (for Chrome's DevTools or `node --cpu-prof`'s readers). `--cpu-prof` given to vitest for its workers
// (`--execArgv`) wrote no profile here; the inspector, asked from inside the worker, does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = process.env.D2M_CPU_PROFILE;
if (dir) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // Every half millisecond: a simulated day's passes are many short calls.
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  // eslint-disable-next-line no-empty-pattern -- no fixtures, and vitest asks for a pattern
  afterAll(async ({}, file) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${file.name.replaceAll('/', '_')}.cpuprofile`), JSON.stringify(profile));
  });
}
