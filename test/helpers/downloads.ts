// A body held in memory saved as the downloader saves a streamed one: written to the store's temporary
// file, then placed under its name (DownloadStore.place).
import { mkdir, unlink } from 'node:fs/promises';
import { writeSynced } from '../../src/util/files.js';
import type { DownloadStore, SavedFile } from '../../src/portal/attachments/saved.js';

export async function saveBody(store: DownloadStore, body: Buffer, name: string | undefined, fallback: string, key?: string): Promise<SavedFile> {
  await mkdir(store.dir, { recursive: true, mode: 0o700 });
  const temp = store.tempPath();
  try {
    await writeSynced(temp, body);
    return await store.place(temp, body.length, name, fallback, key);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
