import { chmodSync, mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The tests' temporary folders (every data_dir, the bins' configs, Chromium's profiles) go to memory where
 * the machine has a tmpfs with room: the bridge flushes each durable write to the disk (src/util/files.ts),
 * 7-9 ms a write on this project's 2-core machine against 0.2 ms on /dev/shm, and a simulated day makes
 * thousands. outage.test.ts alone, beside other runs, in two rounds: 98 and 66 s -> 50 and 30 s wall, 25.7
 * and 24.9 s -> 22.6 and 19.6 s of CPU. The writes, renames and syncs are the same calls; only the disk's
 * wait is gone. Not where /dev/shm is small (a container's 64 MB: the 40 MB download would fill it), nor
 * when TMPDIR is set already.
 */
function memoryTmp(): string | undefined {
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize < 2 * 1024 ** 3) return undefined;
    const dir = join('/dev/shm', `d2m-tests-${process.getuid?.() ?? 0}`);
    mkdirSync(dir, { recursive: true });
    // Open to walk through, as /tmp is: a private Mosquitto started as root reads its files in a folder
    // here as the user `mosquitto` (exit 13 otherwise). Each test's own folder is 0700 (mkdtemp).
    chmodSync(dir, 0o755);
    return dir;
  } catch {
    return undefined;
  }
}
if (process.env.TMPDIR === undefined) {
  const tmp = memoryTmp();
  // Set here, before vitest forks its workers: they, the bins they start and Chromium inherit it.
  if (tmp !== undefined) process.env.TMPDIR = tmp;
}

/**
 * Files that need a process of their own: one mocks node:fs/promises for every module it imports,
 * the others measure the process's memory or listen to its warnings, which another file's leftovers
 * in a shared worker would change.
 */
const OWN_PROCESS = [
  'test/security/power-cut.test.ts',
  'test/security/huge-download.test.ts',
  'test/security/event-streams.test.ts',
  'test/faults/config-fuzz.test.ts',
];

/**
 * The unit files that mock a module run in a process of their own. once/session.test.ts counts every write of
 * util/files.ts: in the unit tier's shared workers its count failed one run in two here (passing alone), the mocked
 * module shared with the files that ran before it in that worker. worlds/mutated.test.ts plants faults in the portal's
 * schemas: in a shared worker the bridge kept the schemas another file had imported first, and no mutation took.
 */
const UNIT_OWN_PROCESS = ['test/unit/once/session.test.ts', 'test/unit/worlds/mutated.test.ts'];

/**
 * A young generation eight times V8's default in the workers that run the worlds and the simulated days (the shared
 * ones, and the two unit files in a process of their own): a simulated day and a generated world make many
 * short-lived objects, and the default's frequent scavenges (5-10% of a file's profile) copy the same survivors again
 * and again. The unit tier, in turns with and without, beside other runs: 129.4 and 118.0 s of CPU -> 114.4 and
 * 105.9 s (`NODE_OPTIONS=--max-semi-space-size=64 /usr/bin/time npx vitest run --project unit`); 64 MB -> 128 MB, in
 * turns on a quiet 2-core machine: 152.7 and 156.7 s -> 143.2 and 150.9 s, 256 MB no better (152.7 s) and a third
 * more memory. Not in the files that measure their process's memory (broker-own-process), nor in the bins the tests
 * start.
 */
const YOUNG_GENERATION_FLAGS = ['--max-semi-space-size=128'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // A test slower than this is named in the report (a file over 20 s says why in a comment at its top).
    slowTestThreshold: 5_000,
    hookTimeout: 20_000,
    // Integration tests share one Mosquitto; each uses its own base topic, free ports and data folder,
    // and waits on the fake clock, so files run side by side. Most of a file's time is spent waiting
    // on sockets, child processes and timers (vitest's default is one fewer than the cores, a single file
    // at a time on a 2-core machine). Three at a time left the two cores a quarter idle: `npm test` 234 s
    // wall and 344 s of CPU, four 217 s and 361 s, on one quiet 2-core machine one run after the other. With
    // four, every test under the default timeout took less than half of it (a run with --testTimeout=10000)
    // but the simulated school day of timetable-day.test.ts, which has a timeout of its own as the other
    // simulated days have.
    pool: 'forks',
    maxWorkers: 4,
    // Each file's CPU and wall time (test/helpers/file-times.ts, first so that its end is the file's last
    // hook), written to test/artifacts/file-times.tsv; every file removes the folders its tests made with
    // tempDir() (test/helpers/temp.ts).
    // D2M_CPU_PROFILE=<folder> adds a CPU profile of each file's process (test/helpers/cpu-profile.ts).
    setupFiles: [
      'test/helpers/file-times.ts',
      'test/helpers/temp-cleanup.ts',
      ...(process.env.D2M_CPU_PROFILE ? ['test/helpers/cpu-profile.ts'] : []),
    ],
    reporters: ['default', './test/helpers/file-times-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: UNIT_OWN_PROCESS,
          // A worker keeps its imported modules from one unit file to the next instead of importing
          // the bridge afresh for each of 125 files: 80 s of CPU -> 31 s, 42 s -> 17 s wall measured
          // alone. The unit files keep no state between files (no module mocks, each its own clock
          // and folders), so sharing the imports changes nothing they show.
          isolate: false,
          execArgv: YOUNG_GENERATION_FLAGS,
        },
      },
      {
        extends: true,
        test: { name: 'unit-own-process', include: UNIT_OWN_PROCESS, execArgv: YOUNG_GENERATION_FLAGS },
      },
      {
        extends: true,
        test: {
          name: 'broker',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', ...OWN_PROCESS],
          // Probes MQTT_URL once: no broker, one line saying how to start one, and no test runs.
          globalSetup: ['test/helpers/broker-setup.ts', 'test/helpers/build-setup.ts'],
          // Shared imports here too (each file has its own topics, ports, folders and clock): the
          // broker tier alone took 172 s of CPU, 174 s wall; the whole vitest run, each file in a
          // fresh process, 423 s of CPU (measured beside other engineers' runs).
          isolate: false,
          execArgv: YOUNG_GENERATION_FLAGS,
        },
      },
      {
        extends: true,
        test: {
          name: 'broker-own-process',
          include: OWN_PROCESS,
          globalSetup: ['test/helpers/broker-setup.ts', 'test/helpers/build-setup.ts'],
          // The memory measures collect garbage before they read (huge-download's streamed 40 MB).
          execArgv: ['--expose-gc'],
        },
      },
    ],
  },
});
