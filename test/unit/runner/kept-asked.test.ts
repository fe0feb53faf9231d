// Assist's kept facts of a start's first pass: a file kept before a field of the facts was added (a build of the same
// version) still loads, the field taken from the part's honest unknown, so a part reads every field its type requires.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptAskedStore } from '../../../src/portal/login-records.js';
import { KeptAskedFacts } from '../../../src/runner/kept-asked.js';
import { schoolFilesAsk } from '../../../src/features/school-files/ask.js';
import { silentLogger } from '../../../src/util/log.js';
import { VERSION } from '../../../src/util/version.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function keptOf(facts: unknown, version = VERSION): Promise<KeptAskedFacts> {
  const dir = mkdtempSync(join(tmpdir(), 'kept-asked-'));
  dirs.push(dir);
  await new KeptAskedStore(dir, 'jan').save({ 'school-files': { version, facts } });
  const kept = new KeptAskedFacts(dir, 'jan', silentLogger());
  await kept.load();
  return kept;
}

describe("Assist's kept facts", () => {
  it('fill a field an older file lacks from the part\'s unknown ("absent": false, as its lack meant)', async () => {
    const kept = await keptOf({ files: [{ name: 'Plan.pdf', date: null }] });
    expect(kept.of('school-files', schoolFilesAsk.unknown)).toEqual({ files: [{ name: 'Plan.pdf', date: null }], absent: false });
  });

  it('keep every field the file has, and take nothing another version kept', async () => {
    expect((await keptOf({ files: null, absent: true })).of('school-files', schoolFilesAsk.unknown)).toEqual({ files: null, absent: true });
    expect((await keptOf({ files: [] }, '0.0.0-other')).of('school-files', schoolFilesAsk.unknown)).toBeUndefined();
  });
});
