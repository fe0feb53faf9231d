// Files in data_dir: written atomically (temp file, fsync, rename) with mode 0600, so a crash or a
// full disk never leaves a half-written jar or memory behind, and no other user can read them.
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Reads a JSON file; a missing file gives undefined, a corrupt one is reported by onCorrupt. */
export async function readJson(path: string, onCorrupt?: (error: Error) => void): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    onCorrupt?.(error as Error);
    return undefined;
  }
}

export function writeJson(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value)}\n`);
}

/** A file-name-safe form of a login or id. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
}
