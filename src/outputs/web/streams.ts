// The limits of the long-lived answers (the board's server-sent events): a reader that stops reading
// (a tablet asleep with its connection half-open, or someone holding streams open on purpose) must not
// make the bridge keep every event for it. Once the kernel's socket buffers are full, what is written
// waits in the bridge's memory: past MAX_STREAM_BUFFER the stream is dropped (its page falls back to
// reading, and a live page reconnects).
import type { ServerResponse } from 'node:http';

/** Open event streams at once; the next one is refused with 503 (the page then fetches `api/board`). */
export const MAX_STREAMS = 16;

/** Bytes a stream may have waiting in the bridge for its reader before it is dropped. */
export const MAX_STREAM_BUFFER = 256 * 1024;

/** The streams writeToStream dropped, with the bytes that waited for their reader then. */
const dropped = new WeakMap<ServerResponse, number>();

/** Writes to an open stream; drops the stream when its reader has fallen too far behind. */
export function writeToStream(res: ServerResponse, text: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.write(text);
  if (res.writableLength > MAX_STREAM_BUFFER) {
    dropped.set(res, res.writableLength);
    res.destroy();
  }
}

/** The bytes that waited in the bridge when writeToStream dropped this stream (the server logs them when it closes), or undefined. */
export function droppedWaiting(res: ServerResponse): number | undefined {
  return dropped.get(res);
}
