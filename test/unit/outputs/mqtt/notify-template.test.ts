// The notify entities' command_template rendered as Home Assistant renders it: Jinja in a sandboxed
// environment with the notify call's message as `value` (HA's mqtt/notify.py calls the template with
// the message alone). Whatever a parent types must arrive at the bridge as the same text in valid JSON.
import { execFileSync } from 'node:child_process';
import { skipWithoutJinja } from '../../../helpers/blueprints.js';
import { describe, expect, it } from 'vitest';
import { TEXT_TEMPLATE } from '../../../../src/features/opened-message/opened-message.js';

const RENDER = [
  'import json, sys',
  'from jinja2.sandbox import ImmutableSandboxedEnvironment',
  'args = json.load(sys.stdin)',
  'env = ImmutableSandboxedEnvironment()',
  'print(json.dumps([env.from_string(args["template"]).render(value=v) for v in args["values"]]))',
].join('\n');

function render(template: string, values: string[]): string[] {
  const out = execFileSync('python3', ['-c', RENDER], { input: JSON.stringify({ template, values }), encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

describe.skipIf(skipWithoutJinja())('the notify command_template (python3-jinja2)', () => {
  it('turns any message into {"text": message}, quotes, new lines, Polish letters and HTML included', () => {
    const messages = ['Dzień dobry', 'Linia 1\nLinia 2\r\n"cytat" \\ ukośnik', '<b>nie HTML</b> & {{ nie szablon }}', 'zażółć gęślą jaźń 😀', ''];
    const payloads = render(TEXT_TEMPLATE, messages);
    expect(payloads.map((p) => JSON.parse(p) as unknown)).toEqual(messages.map((text) => ({ text })));
  });

  it('would break on a naive template (the test can tell)', () => {
    const [payload] = render('{"text": "{{ value }}"}', ['"cytat"\nnowa linia']);
    expect(() => JSON.parse(payload!)).toThrow();
  });
});
