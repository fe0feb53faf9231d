// Stored state cut short (issue 20, item 10): every file the bridge keeps in data_dir truncated, as a
// crash of an older version or a failing disk could leave it, then a start. The bridge runs, each file
// is moved aside as <name>.broken-<time> and reported once, its part starts as on a first run, and the
// lost memory of seen items fires no flood of old events.
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, truncate, writeFile, mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { readStored } from '../../src/util/stored.js';
import { SeenStore } from '../../src/once/memory.js';
import { FaultTable } from '../helpers/faults.js';
import { startFaultApp } from '../helpers/faults-app.js';
import { MIN, worldFor } from '../helpers/faults-world.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const table = new FaultTable('Fault table: stored state');
afterAll(() => table.print());

/** Every file under dir, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe('every data_dir file truncated, then a start', () => {
  it('the bridge starts, each file is moved aside and reported once, no flood of old events', async (ctx) => {
    const w = await worldFor(ctx);
    const port = await freePort();
    const dataDir = await tempDir();
    const start = () =>
      startFaultApp({ sim: w.sim, tap: w.tap, clock: w.clock, accounts: [w.account({ downloads: true })], http: { port }, dataDir });
    const first = await start();
    w.app = first;
    await w.untilFirstPass();
    await first.advanceMinutes(25); // a second pass: every memory written, downloads settled
    await first.stop();

    const kept = (await filesUnder(dataDir)).filter((f) => !f.startsWith('downloads/') || f.endsWith('.index.json'));
    // The files a run keeps: the session, the identity, the event memory, the subject keys, the token.
    expect(kept).toEqual(
      expect.arrayContaining(['http-token', 'identity/1234567u.json', 'seen/ania.json', 'sessions/1234567u.json', 'subjects/1234567u.json']),
    );
    for (const file of kept) {
      const path = join(dataDir, file);
      // Half a JSON file is never JSON; the token must be cut below its 16-character minimum.
      await truncate(path, file === 'http-token' ? 8 : Math.floor((await stat(path)).size / 2));
    }
    // A grade added meanwhile, and the old items: with the memory lost, none of them may fire.
    w.addGrade();

    const h = await start();
    w.app = h;
    await h.runUntil(() => h.state('ania', 'newest_grade') === '3', 'the first pass after the start', 1 * MIN);
    await h.advanceMinutes(25);

    const after = await filesUnder(dataDir);
    for (const file of kept) {
      const broken = after.filter((f) => f.startsWith(`${file}.broken-`));
      expect(broken, file).toHaveLength(1);
      expect(broken[0], file).toMatch(/\.broken-\d{8}T\d{6}Z$/);
    }
    // Made again whole where the run writes them.
    for (const file of ['sessions/1234567u.json', 'seen/ania.json', 'identity/1234567u.json']) {
      expect(() => JSON.parse(readFileSync(join(dataDir, file), 'utf8')), file).not.toThrow();
    }
    expect((await readFile(join(dataDir, 'http-token'), 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(h.state('ania', 'availability')).toBe('online');
    const events = h.rec.messages.filter((m) => m.topic.includes('/event/')).length;
    expect(events).toBe(0);
    // Each broken file told once.
    const told = h.logs.lines.filter((l) => l.includes('moved aside as'));
    expect(told).toHaveLength(kept.length);

    table.record({
      fault: 'every data_dir file truncated, then a start',
      survived: true,
      lost: false,
      sentTwice: events > 0,
      secretLeaked: (await h.leaks()).length > 0,
    });
  }, 60_000);
});

describe('readStored', () => {
  const schema = z.object({ a: z.number() });

  it('reads a file that fits; a missing one is undefined and nothing is moved', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'x.json'), '{"a":1}');
    expect(await readStored(join(dir, 'x.json'), schema)).toEqual({ a: 1 });
    expect(await readStored(join(dir, 'y.json'), schema)).toBeUndefined();
    expect(await readdir(dir)).toEqual(['x.json']);
  });

  it.each([
    ['cut short', '{"a":1', /is not JSON/],
    ['empty', '', /is empty/],
    ['of another shape', '{"a":"one"}', /is not as expected \(a: /],
  ])('a file %s: undefined, moved aside with the time, told once', async (_what, text, reason) => {
    const dir = await tempDir();
    await writeFile(join(dir, 'x.json'), text);
    const told: Error[] = [];
    const now = Date.parse('2026-11-23T06:41:07.123Z');
    expect(await readStored(join(dir, 'x.json'), schema, { onBroken: (e) => told.push(e), now })).toBeUndefined();
    expect(await readdir(dir)).toEqual(['x.json.broken-20261123T064107Z']);
    expect(told.map((e) => e.message)).toEqual([expect.stringMatching(reason)]);
    expect(told[0]!.message).toContain('moved aside as x.json.broken-20261123T064107Z');
    // The next start finds no file: nothing to tell again.
    expect(await readStored(join(dir, 'x.json'), schema, { onBroken: (e) => told.push(e) })).toBeUndefined();
    expect(told).toHaveLength(1);
  });

  it('a lost event memory primes instead of firing: the items already there fire nothing', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'seen'));
    await writeFile(join(dir, 'seen', 'ania.json'), '{"grade":["grade:1","gra');
    const seen = new SeenStore(dir, 'ania');
    await seen.load();
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `grade:${i}`, payload: i }));
    expect(seen.take('grade', items, false).news).toEqual([]);
    expect(seen.take('grade', [...items, { id: 'grade:new', payload: 9 }], false).news).toEqual([{ id: 'grade:new', payload: 9 }]);
  });
});
