// Sending a command to the running bridge over the broker and reading its result, as Home Assistant
// or an automation would: publish on <base>/<c>/<command>/set, wait for <command>/result.
import { waitUntil } from './mqtt.js';
import type { FakeClock } from './clock.js';
import type { Harness } from './app.js';

const realDelay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The result of one command. With `clock`, the fake clock moves a second at a time while the command
 * runs (an attachment's download waits between its tries on that clock).
 */
export async function command(h: Harness, child: string, name: string, payload: string, clock?: FakeClock): Promise<Record<string, unknown>> {
  const topic = `${h.base}/${child}/${name}/result`;
  const before = h.rec.on(topic).length;
  await h.rec.publish(`${h.base}/${child}/${name}/set`, payload);
  if (clock) {
    for (let i = 0; i < 300 && h.rec.on(topic).length === before; i++) {
      await clock.advance(1_000);
      await realDelay(20);
    }
  }
  await waitUntil(() => h.rec.on(topic).length > before, `the ${name} result`, 10_000);
  return JSON.parse(h.rec.on(topic).at(-1)!.text) as Record<string, unknown>;
}
