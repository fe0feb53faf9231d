// The retained mirror: only changes go out, clears go out once, everything goes again after resend().
import { describe, expect, it } from 'vitest';
import { RetainedMirror } from '../../../../src/outputs/mqtt/mirror.js';

describe('RetainedMirror', () => {
  it('sends a topic only when its payload differs from what was sent', () => {
    const m = new RetainedMirror();
    m.set('a', '1');
    m.set('b', '1');
    expect(m.take()).toEqual([
      { topic: 'a', payload: '1' },
      { topic: 'b', payload: '1' },
    ]);
    m.set('a', '1');
    expect(m.take()).toEqual([]);
    m.set('a', '2');
    m.set('a', '1');
    expect(m.take()).toEqual([]);
    m.set('a', '3');
    expect(m.take()).toEqual([{ topic: 'a', payload: '3' }]);
  });

  it('clears a topic once, even one it never sent, and sends it again when set again', () => {
    const m = new RetainedMirror();
    m.set('a', '1');
    m.take();
    m.clear('a');
    m.clear('left/by/an/earlier/run');
    expect(m.take()).toEqual([
      { topic: 'a', payload: '' },
      { topic: 'left/by/an/earlier/run', payload: '' },
    ]);
    m.resend();
    expect(m.take()).toEqual([]);
    m.set('a', '1');
    expect(m.take()).toEqual([{ topic: 'a', payload: '1' }]);
  });

  it('keeps the latest payload while nothing is taken, and sends everything after resend()', () => {
    const m = new RetainedMirror();
    m.set('x/state', 'on');
    m.set('y/state', '1');
    m.take();
    m.set('y/state', '2');
    m.set('y/state', '3');
    m.resend();
    expect(m.take()).toEqual([
      { topic: 'y/state', payload: '3' },
      { topic: 'x/state', payload: 'on' },
    ]);
  });

  it('clears everything under a prefix', () => {
    const m = new RetainedMirror();
    m.set('b/ania/x', '1');
    m.set('b/ania/x/attributes', '{}');
    m.set('b/anna/x', '1');
    m.take();
    m.clearUnder('b/ania/');
    expect(m.take()).toEqual([
      { topic: 'b/ania/x', payload: '' },
      { topic: 'b/ania/x/attributes', payload: '' },
    ]);
  });
});
