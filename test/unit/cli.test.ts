// The command line's parsing of the token commands: `token` only with --rotate (it changes what
// others use), --show-token only for check.
import { describe, expect, it } from 'vitest';
import { parseArgs, USAGE } from '../../src/cli.js';

describe('the token options', () => {
  it('parses token --rotate and check --show-token', () => {
    expect(parseArgs(['token', '--rotate', '--config', 'c.yaml'])).toMatchObject({ command: 'token', rotate: true, config: 'c.yaml' });
    expect(parseArgs(['check', '--show-token'])).toMatchObject({ command: 'check', showToken: true });
    expect(parseArgs(['check'])).toMatchObject({ command: 'check', showToken: false });
  });

  it('refuses token without --rotate, and each option with another command', () => {
    expect(() => parseArgs(['token'])).toThrow(/token needs --rotate/);
    expect(() => parseArgs(['run', '--show-token'])).toThrow(/--show-token goes with check/);
    expect(() => parseArgs(['check', '--rotate'])).toThrow(/--rotate goes with token/);
  });

  it('names both in the usage text', () => {
    expect(USAGE).toMatch(/^ {2}token {6}with --rotate/m);
    expect(USAGE).toContain('--show-token');
  });
});

describe('check --trace', () => {
  it('takes a file for check only, and says in the usage what the file never holds', () => {
    expect(parseArgs(['check', '--trace', 'trace.txt'])).toMatchObject({ command: 'check', trace: 'trace.txt' });
    expect(parseArgs(['check', '--trace=t.txt'])).toMatchObject({ trace: 't.txt' });
    expect(() => parseArgs(['check', '--trace'])).toThrow(/--trace needs a value/);
    expect(() => parseArgs(['run', '--trace', 'x'])).toThrow(/--trace goes with check/);
    expect(USAGE).toMatch(/--trace FILE[\s\S]*never a password, cookie value, code or child data/);
  });
});
