// What the process that runs the bridge sets for itself before it loads the bridge, beside V8's flags
// (launch.ts). Its own module, loaded after the relaunch: the launcher that only waits for its child loads
// none of it. zod is imported statically and as a namespace, as everywhere else: a dynamic `import('zod')`
// of the package would make the bundle keep all of zod (568 KB of source text held in memory) instead of
// the parts the bridge uses.
import * as z from 'zod';

/**
 * Both keep memory that nothing reads from being held (measured with `node dist/bench/bin-rss.js --web --node
 * <the image's Node>`, three children, three runs each, in turn: zod's compiled parsers 0.9 MB, the 64 KB pool
 * 0.6 MB, on Node 26.12.1).
 */
export function withLeanRuntime(): void {
  // Node 26 cuts small Buffers from 64 KB slabs (8 KB before): one kept for long (mqtt-packet caches the length header
  // of every packet size it wrote; the last will's payload) holds its whole slab. Slabs of 8 KB, as on Node 20.
  Buffer.poolSize = 8 * 1024;
  // zod writes and compiles a parser function for each object schema at its first parse: some 30 functions kept as
  // source text and bytecode, for a speed the bin, run by V8's interpreter alone, does not get. The schemas parse alike
  // without them. Set before any schema is built (each decides at its construction): main.ts loads the bridge after.
  z.config({ jitless: true });
}
