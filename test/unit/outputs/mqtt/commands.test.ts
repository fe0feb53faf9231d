// The command router: bad input never reaches a handler, errors become results, one child at a time.
import { describe, expect, it, vi } from 'vitest';
import { CommandError, type CommandHandler } from '../../../../src/features/kit/commands.js';
import { CommandRouter, MAX_PENDING_PER_CHILD } from '../../../../src/outputs/mqtt/commands.js';
import { silentLogger } from '../../../../src/util/log.js';

function router(known: Record<string, string[]> = { ania: ['refresh', 'send_message'] }): CommandRouter {
  return new CommandRouter({
    log: silentLogger(),
    commandsOf: (child) => (known[child] ? new Set(known[child]) : undefined),
  });
}

const buf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('CommandRouter', () => {
  it('passes text, argument and transaction to the handler and echoes the transaction', async () => {
    const r = router();
    const handler = vi.fn<CommandHandler>(async () => ({ sent: true }));
    r.register('send_message', handler);
    const result = await r.handle('ania', 'send_message', buf(' {"id":"sick","transaction":"t-1"} '));
    expect(result).toEqual({ status: 'ok', sent: true, transaction: 't-1' });
    expect(handler).toHaveBeenCalledWith(
      expect.objectContaining({ child: 'ania', command: 'send_message', arg: 'sick', transaction: 't-1', text: '{"id":"sick","transaction":"t-1"}' }),
    );
  });

  it('takes a plain payload as the argument', async () => {
    const r = router();
    const handler = vi.fn<CommandHandler>(async () => ({}));
    r.register('send_message', handler);
    expect(await r.handle('ania', 'send_message', buf('sick\n'))).toEqual({ status: 'ok' });
    expect(handler.mock.calls[0]?.[0]).toMatchObject({ arg: 'sick', text: 'sick' });
    expect(handler.mock.calls[0]?.[0].transaction).toBeUndefined();
  });

  it.each([
    ['a payload over 1 KB', 'ania', 'refresh', Buffer.alloc(1025, 'a'), 'payload over 1024 bytes'],
    ['an unknown child', 'jan', 'refresh', buf('x'), 'unknown child "jan"'],
    ['an unknown command', 'ania', 'format_disk', buf('x'), 'unknown command "format_disk"'],
    ['broken JSON', 'ania', 'refresh', buf('{"id":'), 'payload is not valid JSON'],
    ['an id that is an object', 'ania', 'refresh', buf('{"id":{"x":1}}'), '"id" must be a string or a number'],
    ['bytes that are not UTF-8', 'ania', 'refresh', Buffer.from([0xff, 0xfe]), 'payload is not UTF-8 text'],
  ])('answers %s with an error and does not call the handler', async (_what, child, command, payload, error) => {
    const r = router();
    const handler = vi.fn<CommandHandler>(async () => ({}));
    r.register('refresh', handler);
    expect(await r.handle(child, command, payload)).toEqual({ status: 'error', error });
    expect(handler).not.toHaveBeenCalled();
  });

  it('echoes the transaction in errors found after it was read', async () => {
    const r = router();
    r.register('refresh', async () => ({}));
    expect(await r.handle('jan', 'refresh', buf('{"transaction":7}'))).toEqual({ status: 'error', error: 'unknown child "jan"', transaction: '7' });
  });

  it('publishes a CommandError message but hides other errors', async () => {
    const log = silentLogger();
    const logged = vi.spyOn(log, 'error');
    const r = new CommandRouter({ log, commandsOf: () => new Set() });
    r.register('a', async () => {
      throw new CommandError('no such message id');
    });
    r.register('b', async () => {
      throw new Error('socket hang up at 10.0.0.1 with password hunter2');
    });
    expect(await r.handle('ania', 'a', buf('x'))).toEqual({ status: 'error', error: 'no such message id' });
    expect(await r.handle('ania', 'b', buf('x'))).toEqual({ status: 'error', error: 'internal error' });
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('sends commands of a child button to the catch-all handler, and only those', async () => {
    const r = router();
    const fallback = vi.fn<CommandHandler>(async (req) => ({ got: req.command }));
    r.registerFallback(fallback);
    expect(await r.handle('ania', 'refresh', buf('refresh'))).toEqual({ status: 'ok', got: 'refresh' });
    expect(await r.handle('ania', 'mark_notices_read', buf('all'))).toEqual({ status: 'error', error: 'unknown command "mark_notices_read"' });
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('runs one command per child at a time, in order, and children in parallel', async () => {
    const r = router({ ania: [], jan: [] });
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    r.register('work', (req) => {
      log.push(`start ${req.child} ${req.arg}`);
      return new Promise((resolve) =>
        gates.set(`${req.child} ${req.arg}`, () => {
          log.push(`end ${req.child} ${req.arg}`);
          resolve({});
        }),
      );
    });
    const a1 = r.handle('ania', 'work', buf('1'));
    const a2 = r.handle('ania', 'work', buf('2'));
    const j1 = r.handle('jan', 'work', buf('1'));
    await vi.waitFor(() => expect(gates.size).toBe(2));
    expect(log).toEqual(['start ania 1', 'start jan 1']);
    gates.get('ania 1')?.();
    await a1;
    await vi.waitFor(() => expect(log).toContain('start ania 2'));
    gates.get('ania 2')?.();
    gates.get('jan 1')?.();
    await Promise.all([a2, j1]);
    expect(log).toEqual(['start ania 1', 'start jan 1', 'end ania 1', 'start ania 2', 'end ania 2', 'end jan 1']);
  });

  it('refuses commands beyond the per-child queue limit', async () => {
    const r = router({ ania: [] });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    r.register('work', async () => {
      await gate;
      return {};
    });
    const accepted = Array.from({ length: MAX_PENDING_PER_CHILD }, () => r.handle('ania', 'work', buf('x')));
    expect(await r.handle('ania', 'work', buf('x'))).toEqual({ status: 'error', error: 'busy, try again later' });
    release();
    expect(await Promise.all(accepted)).toHaveLength(MAX_PENDING_PER_CHILD);
    expect(await r.handle('ania', 'work', buf('x'))).toEqual({ status: 'ok' });
  });

  it('a command that only waits (a refresh) runs beside the line: a send after it is not held up, and it counts toward the limit', async () => {
    const r = router({ ania: [] });
    let release: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    r.register(
      'refresh',
      async () => {
        await waiting;
        return { refreshed: true };
      },
      { concurrent: true },
    );
    r.register('send', async () => ({ sent: true }));
    const refresh = r.handle('ania', 'refresh', buf('x'));
    expect(await r.handle('ania', 'send', buf('x'))).toEqual({ status: 'ok', sent: true });
    const more = Array.from({ length: MAX_PENDING_PER_CHILD - 1 }, () => r.handle('ania', 'refresh', buf('x')));
    expect(await r.handle('ania', 'send', buf('x'))).toEqual({ status: 'error', error: 'busy, try again later' });
    release();
    expect(await refresh).toEqual({ status: 'ok', refreshed: true });
    await Promise.all(more);
  });
});
