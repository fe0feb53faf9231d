// A data_dir on its own small tmpfs, so a test can make it really read-only (remount ro: EROFS even
// for root, whom chmod does not stop) or really full (ENOSPC). Needs root with the right to mount;
// canMount() says whether this machine allows it, and the tests that need it are skipped otherwise.
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function canMount(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    const fs = await SmallFs.create(64);
    await fs.destroy();
    return true;
  } catch {
    return false;
  }
}

export class SmallFs {
  private constructor(readonly path: string) {}

  static async create(sizeKb: number): Promise<SmallFs> {
    const path = await mkdtemp(join(tmpdir(), 'd2m-smallfs-'));
    try {
      await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', path]);
    } catch (error) {
      await rmdir(path).catch(() => undefined);
      throw error;
    }
    return new SmallFs(path);
  }

  /**
   * Remounting read-only fails with "busy" while a file on it is open for writing (the bridge may be
   * saving its session at that moment): try again a few times.
   */
  async readOnly(on: boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, this.path]);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Writes a filler file until the file system is full (ENOSPC). */
  async fill(): Promise<void> {
    const handle = await open(join(this.path, '.filler'), 'a');
    const chunk = Buffer.alloc(4096, 0x61);
    try {
      for (;;) await handle.write(chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      await handle.close();
    }
  }

  async unfill(): Promise<void> {
    await rm(join(this.path, '.filler'), { force: true });
  }

  async destroy(): Promise<void> {
    await run('umount', [this.path]).catch(() => run('umount', ['-l', this.path]));
    await rmdir(this.path).catch(() => undefined);
  }
}
