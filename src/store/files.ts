// Files in data_dir: written atomically (temp file, fsync, rename) with mode 0600, so a crash or a
// full disk never leaves a half-written jar or memory behind, and no other user can read them. They
// are read back through a schema (stored.ts).
import { mkdir, open, rename, unlink } from 'node:fs/promises';
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

export function writeJson(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value)}\n`);
}

/** A file-name-safe form of a login or id. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
}
