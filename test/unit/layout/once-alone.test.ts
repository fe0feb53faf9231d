// "Published once" is one folder (src/once/: the memory, the outbox, the event gate, the session, the
// handover) that stands below everything it guards: it names no feature, no runner, no output. Which kinds a
// new school year resets the features declare and the runner hands to the gate; the folder itself reads
// only the small helpers under it (util/) and the lease's record (lease/), so that its invariant can be
// checked by reading it alone.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileEdges } from '../../helpers/import-graph.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
/** The folders src/once/ may import besides its own files. */
const BELOW = ['util', 'lease'];

const folder = (file: string): string => file.split('/')[0] ?? file;

describe('src/once/', () => {
  const imports = fileEdges(SRC)
    .filter((e) => folder(e.from) === 'once')
    .map((e) => `${e.from} -> ${e.to}`);

  it('imports no feature, nor the runner, nor anything else above it (only util/ and lease/)', () => {
    const above = imports.filter((pair) => {
      const to = folder(pair.split(' -> ')[1] ?? '');
      return to !== 'once' && !BELOW.includes(to);
    });
    expect(above).toEqual([]);
  });

  it('holds the event gate, whose imports are seen (the check above is not vacuous)', () => {
    expect(imports).toEqual(
      expect.arrayContaining(['once/gate.ts -> once/memory.ts', 'once/gate.ts -> once/rollover.ts', 'once/gate.ts -> util/log.ts']),
    );
  });
});
