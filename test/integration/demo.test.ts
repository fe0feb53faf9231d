// `demo`: a newcomer runs one command and sees entities appear, with no account and no broker.
import { describe, expect, it } from 'vitest';
import { connectAsync } from 'mqtt';
import { runDemo } from '../../src/demo.js';
import { waitUntil } from '../helpers/mqtt.js';
import { freePort } from '../helpers/ports.js';


describe('demo', () => {
  // How fast the first publish comes is measured by `npm run bench`, not here.
  it('starts the simulator and an embedded broker and publishes both children’s lucky numbers', async () => {
    const port = await freePort();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const output: string[] = [];
    const demo = runDemo({ port, untilStopped: stopped, out: { write: (t: string) => output.push(t) }, logLevel: 'silent' });

    await waitUntil(() => output.join('').includes(`mqtt://127.0.0.1:${port}`), 'the banner', 15_000);
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`);
    const lucky = new Map<string, string>();
    client.on('message', (topic, payload) => lucky.set(topic, payload.toString()));
    await client.subscribeAsync('dziennik2mqtt/+/lucky_number');
    await waitUntil(() => lucky.size === 2, 'both children’s lucky numbers', 15_000);
    expect([...lucky.values()].every((v) => /^\d+$/.test(v))).toBe(true);
    await client.endAsync();

    stop();
    await expect(demo).resolves.toBe(0);
    expect(output.join('')).toContain('ania/lucky_number');
  }, 40_000);
});
