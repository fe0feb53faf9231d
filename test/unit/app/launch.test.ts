// When the bin starts itself again with its memory flags, and with which: a flag the user gave wins.
import { describe, expect, it } from 'vitest';
import { missingV8Flags, relaunchArgs, type LaunchContext } from '../../../src/app/launch.js';

const COMPILERS = ['--no-opt', '--no-maglev', '--no-sparkplug', '--liftoff-only', '--optimize-for-size'];
const ALL = ['--max-semi-space-size=1', '--max-old-space-size=64', '--v8-pool-size=1', ...COMPILERS];

function context(argv: string[], more: Partial<LaunchContext> = {}): LaunchContext {
  return { argv, execArgv: [], env: {}, execPath: '/usr/bin/node', script: '/app/dist/main.js', ...more };
}

describe('the memory flags', () => {
  it('are all missing from a plain start', () => {
    expect(missingV8Flags([], undefined)).toEqual(ALL);
  });

  it('leave out what the user set on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(missingV8Flags(['--max_old_space_size=256'], '--v8-pool-size=4')).toEqual(['--max-semi-space-size=1', ...COMPILERS]);
    expect(
      missingV8Flags(
        [],
        ' --max-semi-space-size=8   --max-old-space-size=100 --v8-pool-size=2 --opt --maglev --sparkplug --no-liftoff-only --optimize_for_size',
      ),
    ).toEqual([]);
  });

  it("take a compiler the user turned on (--opt, --maglev) as the user's choice", () => {
    expect(missingV8Flags(['--maglev'], '--opt')).toEqual([
      '--max-semi-space-size=1',
      '--max-old-space-size=64',
      '--v8-pool-size=1',
      '--no-sparkplug',
      '--liftoff-only',
      '--optimize-for-size',
    ]);
  });
});

describe('the relaunch', () => {
  it('starts run (also as the default command) and demo again with the missing flags, keeping the rest', () => {
    expect(relaunchArgs(context(['run', '--config', 'c.yaml'], { execArgv: ['--max-old-space-size=128', '--trace-warnings'] }))).toEqual([
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      ...COMPILERS,
      '--max-old-space-size=128',
      '--trace-warnings',
      '/app/dist/main.js',
      'run',
      '--config',
      'c.yaml',
    ]);
    expect(relaunchArgs(context(['--config', 'c.yaml']))?.slice(0, ALL.length)).toEqual(ALL);
    expect(relaunchArgs(context([]))).toEqual([...ALL, '/app/dist/main.js']);
    expect(relaunchArgs(context(['demo', '--port', '1884']))).toEqual([...ALL, '/app/dist/main.js', 'demo', '--port', '1884']);
  });

  it('does not happen for the short commands, help and version, when every flag is there, or twice', () => {
    expect(relaunchArgs(context(['check']))).toBeUndefined();
    expect(relaunchArgs(context(['dashboard', '--lang', 'pl']))).toBeUndefined();
    expect(relaunchArgs(context(['run', '--help']))).toBeUndefined();
    expect(relaunchArgs(context(['--version']))).toBeUndefined();
    expect(relaunchArgs(context(['run'], { execArgv: ALL }))).toBeUndefined();
    expect(relaunchArgs(context(['run'], { env: { NODE_OPTIONS: ALL.join(' ') } }))).toBeUndefined();
    expect(relaunchArgs(context(['run'], { env: { DZIENNIK2MQTT_RELAUNCHED: '1' } }))).toBeUndefined();
  });
});
