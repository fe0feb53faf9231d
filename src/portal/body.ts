// Reading an answer's body under a size limit, counted as it streams in: into memory (JSON, pages) or
// into a file (downloads), so an 80 MB answer from a broken or hostile server costs at most the limit
// in memory, or the limit on disk, and never the whole of it. The bridge runs with a 64 MB heap.
import { mkdir, open, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StorageError } from './errors.js';

/** The body stream of an answer: undici's, or anything that yields byte chunks and can be dropped. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

/** The Content-Length an answer announced, when it is a plain number. */
export function announcedLength(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * The whole body, at most `limit` bytes: one byte more and the stream is dropped (which closes the
 * connection) and `tooLarge()` is thrown. An announced length over the limit fails before any read.
 */
export async function readCapped(stream: BodyStream, limit: number, announced: number | undefined, tooLarge: () => Error): Promise<Buffer> {
  if (announced !== undefined && announced > limit) throw drop(stream, tooLarge());
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) throw drop(stream, tooLarge());
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Streams the body into a new file at `path` (0600, synced, its folder made 0700 if missing), at most
 * `limit` bytes; resolves to its size. On any failure (too large, the connection lost, the disk full) the partial file is removed.
 * A failed write is a StorageError; what the stream throws is passed on as it is.
 */
export async function streamToFile(stream: BodyStream, path: string, limit: number, announced: number | undefined, tooLarge: () => Error) {
  if (announced !== undefined && announced > limit) throw drop(stream, tooLarge());
  const handle = await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    .then(() => open(path, 'w', 0o600))
    .catch((error: unknown) => {
      throw drop(stream, new StorageError(error));
    });
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += chunk.byteLength;
      if (size > limit) throw drop(stream, tooLarge());
      // Awaiting each write keeps at most one chunk in memory: the socket waits for the disk.
      await handle.write(chunk).catch((error: unknown) => {
        throw drop(stream, new StorageError(error));
      });
    }
    await handle.sync().catch((error: unknown) => {
      throw new StorageError(error);
    });
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return size;
}

/** Stops reading (undici then closes the connection) and hands back the error to throw. */
function drop(stream: BodyStream, error: Error): Error {
  stream.destroy();
  return error;
}
