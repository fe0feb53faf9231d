// Bodies read under a limit: counted as they stream, dropped one byte past it; a file that failed
// half-way is removed.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapped, streamToFile, type BodyStream } from '../../../src/portal/body.js';
import { StorageError } from '../../../src/portal/errors.js';
import { tempDir } from '../../helpers/temp.js';

/** A stream of `count` chunks of `size` bytes that records how many were pulled and whether it was dropped. */
function source(count: number, size: number, failAt?: number): BodyStream & { pulled: number; dropped: boolean } {
  let pulled = 0;
  const stream = Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('ECONNRESET');
        pulled++;
        yield Buffer.alloc(size, 0x61);
      }
    })(),
    { objectMode: false, highWaterMark: 1 },
  );
  const body = Object.assign(stream, { dropped: false });
  const destroy = stream.destroy.bind(stream);
  body.destroy = (error?: Error) => {
    body.dropped = true;
    destroy(error);
    return body;
  };
  return Object.defineProperty(body, 'pulled', { get: () => pulled }) as typeof body & { pulled: number };
}

const tooLarge = (): Error => new Error('too large');

describe('readCapped', () => {
  it('returns a body up to the limit whole', async () => {
    const body = await readCapped(source(4, 1000), 4000, undefined, tooLarge);
    expect(body.length).toBe(4000);
  });

  it('one byte over: refused and the stream dropped, long before its end', async () => {
    const stream = source(1000, 1000);
    await expect(readCapped(stream, 3999, undefined, tooLarge)).rejects.toThrow('too large');
    expect(stream.dropped).toBe(true);
    expect(stream.pulled).toBeLessThan(10);
  });

  it('an announced length over the limit: refused before reading anything', async () => {
    const stream = source(1000, 1000);
    await expect(readCapped(stream, 5000, 1_000_000, tooLarge)).rejects.toThrow('too large');
    expect(stream.pulled).toBe(0);
  });
});

describe('streamToFile', () => {
  it('writes the body to a 0600 file and returns its size', async () => {
    const dir = await tempDir();
    const path = join(dir, '.x.part');
    expect(await streamToFile(source(3, 1000), path, 3000, undefined, tooLarge)).toBe(3000);
    expect((await readFile(path)).length).toBe(3000);
  });

  it('over the limit: refused, the partial file removed', async () => {
    const dir = await tempDir();
    const stream = source(1000, 1000);
    await expect(streamToFile(stream, join(dir, '.x.part'), 2500, undefined, tooLarge)).rejects.toThrow('too large');
    expect(stream.dropped).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a connection lost half-way: its error passed on, the partial file removed', async () => {
    const dir = await tempDir();
    await expect(streamToFile(source(10, 1000, 5), join(dir, '.x.part'), 1e6, undefined, tooLarge)).rejects.toThrow('ECONNRESET');
    expect(await readdir(dir)).toEqual([]);
  });

  it('makes a missing folder; a file that cannot be made is a StorageError', async () => {
    const dir = await tempDir();
    expect(await streamToFile(source(1, 10), join(dir, 'new', 'x.part'), 100, undefined, tooLarge)).toBe(10);
    await writeFile(join(dir, 'a-file'), '');
    const error = await streamToFile(source(1, 10), join(dir, 'a-file', 'x.part'), 100, undefined, tooLarge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
  });
});
