// Temporary folders for tests that are removed again: tempDir() remembers each folder it makes, and the
// setup file test/helpers/temp-cleanup.ts removes them after the last test of the file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A new empty folder under os.tmpdir(), removed when the test file ends (or earlier by its owner). */
export async function tempDir(prefix = 'd2m-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder tempDir() made in this file so far. */
export async function removeTempDirs(): Promise<void> {
  const dirs = [...made];
  made.clear();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
