// The fault suite, data_dir: writes that fail while the bridge runs. The data_dir is a small tmpfs of
// its own, remounted read-only (EROFS, which stops root too, unlike chmod) or filled up (ENOSPC). Skipped
// where the tests may not mount. The case "data_dir cannot even be created" is in process-faults.
import { readdir, readFile, stat } from 'node:fs/promises';
import { LOCK_FILE } from '../../src/lease/lease.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { FaultTable } from '../helpers/faults.js';
import { SmallFs, canMount } from '../helpers/faults-mount.js';
import { MIN, addGrade, worldFor, type PortalWorld } from '../helpers/faults-world.js';

const table = new FaultTable('Fault table: data_dir');
afterAll(() => table.print());

let mountable = false;
beforeAll(async () => {
  mountable = await canMount();
});

/** A world and its data_dir on a small file system of its own, both gone when the test ends. */
async function setup(ctx: TestContext): Promise<{ w: PortalWorld; fs: SmallFs }> {
  if (!mountable) ctx.skip('cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)');
  const fs = await SmallFs.create(1024);
  ctx.onTestFinished(() => fs.destroy());
  // Over HTTP: its waits are single 20-minute jumps; in process a pass ends on time and a first read that writes the
  // event memory fell on the full disk's pass (problem ON), which the lag of an HTTP pass behind the jump avoided.
  const w = await worldFor(ctx, { portal: 'http' }); // stopped before the file system goes
  return { w, fs };
}

/** Every file under a directory with its content; not the lock, whose beat a running bridge renews every few seconds. */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name !== '.filler' && e.name !== LOCK_FILE)
      out.set(join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

type Breakage = 'read-only' | 'full';

async function breakIt(fs: SmallFs, how: Breakage): Promise<void> {
  if (how === 'read-only') await fs.readOnly(true);
  else await fs.fill();
}

async function fixIt(fs: SmallFs, how: Breakage): Promise<void> {
  if (how === 'read-only') await fs.readOnly(false);
  else await fs.unfill();
}

describe.concurrent('data_dir', () => {
  it.for<[Breakage, RegExp]>([
    ['read-only', /EROFS/],
    ['full', /ENOSPC/],
  ])('data_dir %s mid-life: every file stays whole, no temp file left, the error is logged with its cause', async ([how, code], ctx) => {
    const { w, fs } = await setup(ctx);
    const h = await w.firstPass({ dataDir: fs.path });
    await h.app.runners[0]!.idle(); // the pass's own saves are done
    const before = await files(fs.path);
    expect([...before.keys()].map((f) => f.slice(fs.path.length))).toEqual(
      expect.arrayContaining(['/sessions/1234567u.json', '/seen/ania.json', '/identity/1234567u.json']),
    );
    await breakIt(fs, how);
    // 300 new grades (a flood: one event, had the memory been saved) make the event memory grow by some 5 KB, more
    // than the pages an in-place rewrite would free, so a non-atomic write would leave it cut short.
    for (let i = 0; i < 300; i++) addGrade(w.sim);
    await h.advanceMinutes(25);
    await w.refresh();
    await h.app.runners[0]!.idle();
    const after = await files(fs.path);
    // Atomic writes: nothing half-written, no temp file, the last good versions still there.
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [path, text] of after) expect(() => JSON.parse(text), path).not.toThrow();
    expect(after).toEqual(before);
    for (const path of after.keys()) expect((await stat(path)).mode & 0o777, path).toBe(0o600);
    expect(h.logs.matching(code).some((l) => /"level":"(warn|error)"/.test(l))).toBe(true);
    await fixIt(fs, how);
  });

  // When the event memory cannot be saved (data_dir read-only or full), reading must go on, problem
  // must say storage_error, and the grade found meanwhile must fire once the disk is writable again.
  it.for<Breakage>(['read-only', 'full'])('data_dir %s mid-life: reading goes on and nothing is lost once it is writable', async (how, ctx) => {
    const { w, fs } = await setup(ctx);
    const h = await w.firstPass({ dataDir: fs.path });
    const grades = (): number => h.requestCounts(0).get('GET Grades') ?? 0;
    await breakIt(fs, how);
    w.addGrade();
    // At 09:10 on a school day the fetch plan reads Grades every few minutes while lessons are on:
    // 12 minutes hold at least two reads, 20 minutes four (42 passes in the former 70 minutes
    // made these the slowest tests of the suite on a busy machine).
    await h.advanceMinutes(12);
    // Either the write failed and problem says so, or (a "full" tmpfs can still take a small file) the
    // memory was saved and the event fired.
    const told = h.state('ania', 'newest_grade') === '3' && (h.state('ania', 'problem') === 'ON' || w.gradeEvents() === 1);
    await fixIt(fs, how);
    const before = grades();
    await h.advanceMinutes(20);
    const passedAgain = grades() >= before + 2;
    table.record({
      fault: `data_dir ${how} mid-life`,
      survived: told && passedAgain && h.state('ania', 'problem') === 'OFF',
      lost: w.gradeEvents() === 0,
      sentTwice: w.gradeEvents() > 1,
      secretLeaked: (await h.leaks()).length > 0,
    });
  });

  it('a data_dir that runs full and comes back: the next passes work (session and identity saves only)', async (ctx) => {
    const { w, fs } = await setup(ctx);
    // Without a new event nothing writes the event memory, so this path survives today. The school
    // files and the sent box are first read in the second normal cycle (never a start's first), and that
    // first read remembers what is already there, a write of its own: a first sync, not an ordinary pass.
    const h = await w.firstPass({ dataDir: fs.path });
    await h.runUntil(() => h.state('ania', 'school_files') !== undefined, 'the second normal cycle (school files, sent box)', 20 * MIN);
    const seen = join(fs.path, 'seen', 'ania.json');
    const memory = await readFile(seen, 'utf8');
    await fs.fill();
    const lastUpdate = h.state('ania', 'last_update');
    await h.runUntil(() => h.state('ania', 'last_update') !== lastUpdate, 'a pass on a full disk', 20 * MIN);
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(await readFile(seen, 'utf8')).toBe(memory);
    await fs.unfill();
    const end = await w.recover(() => undefined);
    table.record({ fault: 'data_dir full during a pass without events', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });
});
