// Changing the log level at run time reaches every logger, children made before the change included.
// A plain pino child follows its parent's level only while it has no level of its own; one made with
// its own level (or given one later) keeps it when the root's level changes.
import { describe, expect, it } from 'vitest';
import { createLogger, setLogLevel } from '../../../src/util/log.js';

function logged(): { lines: string[]; root: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const root = createLogger('info', { write: (s: string) => void lines.push((JSON.parse(s) as { msg: string }).msg) });
  return { lines, root };
}

describe('setLogLevel', () => {
  it('changes the level of the root, of children and grandchildren made before, and of those made after', () => {
    const { lines, root } = logged();
    const child = root.child({ part: 'mqtt' });
    const grandchild = child.child({ account: 'ania' });
    const ownLevel = root.child({ part: 'quiet' }, { level: 'warn' });
    grandchild.debug('before the change');
    setLogLevel(root, 'debug');
    root.debug('root');
    child.debug('child');
    grandchild.debug('grandchild');
    ownLevel.debug('own level');
    root.child({ part: 'later' }).debug('made after');
    expect(lines).toEqual(['root', 'child', 'grandchild', 'own level', 'made after']);
  });

  it('reaches the whole family from any member, up as well as down', () => {
    const { lines, root } = logged();
    const child = root.child({ part: 'mqtt' });
    setLogLevel(child, 'error');
    root.warn('root warn');
    child.warn('child warn');
    root.error('root error');
    expect(lines).toEqual(['root error']);
    expect(root.level).toBe('error');
  });
});
