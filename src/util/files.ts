// Files in data_dir: every write goes through writeFileAtomic (write a temporary file, fsync it, rename
// it over the real name, fsync the folder), so a crash, a power cut or a full disk never leaves a
// half-written jar or memory behind, and a rename the disk had not recorded yet cannot undo itself
// after the power comes back. Mode 0600 in 0700 folders: no other user can read them. They are read
// back through a schema (stored.ts). A temporary file a crash left behind is removed at the next start
// (removeLeftoverTemps).
import { createHash, randomBytes } from 'node:crypto';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SerialQueue } from './serial.js';

/** The end of a temporary file's name: `<name>.<pid>.<random>.tmp` next to the file it becomes. */
const TEMP_NAME = /\.\d+\.[0-9a-f]{12}\.tmp$/;
/** A temporary download's name (portal/attachments/saved.ts: a body streamed to disk): `.<random>.part`. */
const PART_NAME = /^\.[0-9a-f]{16}\.part$/;
export const partName = (): string => `.${randomBytes(8).toString('hex')}.part`;

/**
 * `durable: false` skips both syncs, for a file nothing depends on after a power cut (the diagnostics'
 * figures, written after every pass): still never half-written, but not a disk flush every pass. Such a
 * write and its rename are made synchronously: a small file that is never flushed costs the disk's cache a few
 * microseconds, and the asynchronous calls cost the pass ten times that in their own bookkeeping (an
 * `fs.promises` call took 15 us of CPU against 1.4 for the same synchronous one on this project's machine).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    if (durable) {
      await inFolder(path, () => writeSynced(temp, data));
      await rename(temp, path);
    } else {
      await inFolder(path, () => writeFileSync(temp, data, { flag: 'wx', mode: 0o600 }));
      renameSync(temp, path);
    }
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await syncFolder(dirname(path));
}

/**
 * Runs a write of a new file next to `path`; its folder is made only when it is missing (the first write, or a
 * data_dir wiped while the bridge runs), and the write tried once more, not asked for at every write.
 */
async function inFolder(path: string, write: () => unknown): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await write();
  }
}

export function writeJson(path: string, value: unknown, options: { durable?: boolean } = {}): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value)}\n`, options);
}

/**
 * A file rewritten only when what it holds changes: a save of the same text costs one stat (is the file
 * still the one this process wrote?) instead of a write, two disk flushes and a rename, which on a
 * Raspberry Pi's SD card is wear after every pass. A file removed or replaced meanwhile (a data_dir
 * wiped while the bridge runs, a backup put back) is written again. Saves run one after another.
 */
export class SteadyFile {
  /** What was written last: its text's digest (the text itself would stay in memory, 40 KB for a child's calendar feeds) and the file. */
  private written: { digest: string; file: FileMark } | undefined;
  private readonly writes = new SerialQueue();

  constructor(
    readonly path: string,
    private readonly options: { durable?: boolean } = {},
  ) {}

  write(text: string): Promise<void> {
    return this.writes.enqueue(() => this.writeNow(text));
  }

  private async writeNow(text: string): Promise<void> {
    const digest = createHash('sha256').update(text).digest('base64');
    if (this.written?.digest === digest && sameMark(this.written.file, markOf(this.path))) return;
    this.written = undefined;
    await writeFileAtomic(this.path, text, this.options);
    const file = markOf(this.path);
    if (file) this.written = { digest, file };
  }
}

/** What tells one version of a file from another without reading it. */
interface FileMark {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The file's mark, or undefined where there is none (synchronous: one stat, a pass's cheapest call, as writeAtOnce says). */
function markOf(path: string): FileMark | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  return s && { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
}

function sameMark(a: FileMark, b: FileMark | undefined): boolean {
  return b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** A new file (never an existing one: 'wx'), 0600, its bytes on the disk before this resolves. */
export async function writeSynced(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a rename or a new name in a folder durable: until the folder itself is synced, a power cut
 * may bring back the old entry. A system that cannot sync a folder (Windows) is left as it is.
 */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR' && code !== 'ENOTSUP') throw error;
  } finally {
    await handle.close();
  }
}

/** Whether a name is one of the temporary files the writers here leave when the process stops mid-write. */
export function isLeftoverTemp(name: string): boolean {
  return TEMP_NAME.test(name) || PART_NAME.test(name);
}

/**
 * Removes every temporary file a stopped process left anywhere in data_dir (called at start, before
 * anything writes). Symbolic links are not followed: a linked downloads folder is the family's, not
 * ours to walk. Resolves to the names removed, relative to data_dir.
 */
export async function removeLeftoverTemps(dataDir: string, under = ''): Promise<string[]> {
  const entries = await readdir(join(dataDir, under), { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const entry of entries) {
    const relative = under === '' ? entry.name : join(under, entry.name);
    if (entry.isDirectory()) removed.push(...(await removeLeftoverTemps(dataDir, relative)));
    else if (entry.isFile() && isLeftoverTemp(entry.name)) {
      await unlink(join(dataDir, relative)).then(
        () => removed.push(relative),
        () => undefined,
      );
    }
  }
  return removed;
}

/** A file-name-safe form of a login or id. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
}
