// What a person (or a log collector) reads: readable lines with local time, JSON on request, each key
// once, no stack for an expected failure, and secrets still redacted in both forms.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type LogFormat } from '../../../src/util/log.js';

interface Sink {
  lines: string[];
  write(line: string): void;
  isTTY?: boolean;
}

const sink = (isTTY?: boolean): Sink => {
  const lines: string[] = [];
  return { lines, isTTY, write: (line: string) => void lines.push(...line.split('\n').filter(Boolean)) };
};

const logger = (format: LogFormat | undefined, level = 'info', target = sink(), env: NodeJS.ProcessEnv = {}) => ({
  log: createLogger(level, target, { format, env }),
  lines: target.lines,
});

let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
  process.env.TZ = 'Europe/Warsaw';
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T13:03:05.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('text lines', () => {
  it('show local time, the level, the child in brackets, the message and the rest once', () => {
    const { log, lines } = logger('text');
    log.child({ account: 'ania' }).info({ account: 'ania', requests: 12, tier: 'normal' }, 'pass done');
    expect(lines).toEqual(['2026-11-22 14:03:05 INFO  [ania] pass done requests=12 tier=normal']);
  });

  it('quote a value with spaces and give an error by its message', () => {
    const { log, lines } = logger('text');
    log.child({ part: 'mqtt' }).warn({ url: 'mqtt://broker:1883', err: new Error('connect ECONNREFUSED 10.0.0.2:1883') }, 'broker not reachable');
    expect(lines).toEqual(['2026-11-22 14:03:05 WARN  [mqtt] broker not reachable url=mqtt://broker:1883 err="connect ECONNREFUSED 10.0.0.2:1883"']);
  });
});

describe('JSON lines', () => {
  it("hold every key once, the call's own value kept", () => {
    const { log, lines } = logger('json');
    log.child({ account: 'ania' }).child({ part: 'session' }).warn({ account: 'ania', part: 'session', err: 'timeout' }, 'login failed');
    expect(lines).toHaveLength(1);
    const line = lines[0] as string;
    expect(line.match(/"account":/g)).toHaveLength(1);
    expect(line.match(/"part":/g)).toHaveLength(1);
    expect(JSON.parse(line)).toEqual({
      level: 'warn',
      time: '2026-11-22T13:03:05.000Z',
      account: 'ania',
      part: 'session',
      err: 'timeout',
      msg: 'login failed',
    });
  });
});

describe('auto', () => {
  it('is text on a terminal and inside the Home Assistant add-on, JSON elsewhere', () => {
    const text = /^2026-11-22 14:03:05 INFO {2}hello$/;
    const onTerminal = logger(undefined, 'info', sink(true));
    onTerminal.log.info('hello');
    expect(onTerminal.lines[0]).toMatch(text);
    const inAddon = logger(undefined, 'info', sink(false), { SUPERVISOR_TOKEN: 'x' });
    inAddon.log.info('hello');
    expect(inAddon.lines[0]).toMatch(text);
    const piped = logger('auto', 'info', sink(false));
    piped.log.info('hello');
    expect(JSON.parse(piped.lines[0] as string)).toMatchObject({ level: 'info', msg: 'hello' });
  });
});

describe('errors', () => {
  const failure = (): Error => Object.assign(new Error('getaddrinfo ENOTFOUND synergia.librus.pl'), { code: 'ENOTFOUND' });

  it.each(['text', 'json'] as const)('carry no stack at info level (%s)', (format) => {
    const { log, lines } = logger(format);
    log.warn({ err: failure() }, 'pass failed');
    log.error(failure());
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toContain('ENOTFOUND');
      expect(line).not.toMatch(/\bat .*log\.test\.ts|"stack"/);
    }
  });

  it('carry the stack at debug level, for whoever is debugging', () => {
    const { log, lines } = logger('json', 'debug');
    log.warn({ err: failure() }, 'pass failed');
    expect((JSON.parse(lines[0] as string) as { err: { stack: string } }).err.stack).toMatch(/log\.test\.ts/);
  });
});

describe('secrets', () => {
  it.each(['text', 'json'] as const)('stay redacted (%s)', (format) => {
    const { log, lines } = logger(format, 'trace');
    log.info(
      { password: 'hunter2', request: { headers: { cookie: 'DZIENNIKSID=abc123' } }, err: Object.assign(new Error('x'), { token: 't0k3n' }) },
      'login',
    );
    expect(lines.join('\n')).not.toMatch(/hunter2|abc123|t0k3n/);
  });
});
