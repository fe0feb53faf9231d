// An update entity for every install (interface 18.3): the real bridge against the simulated school, the test broker
// and a release feed on this machine (a loopback HTTP server answering as GitHub's releases.atom does). Its discovery
// is held to Home Assistant's MQTT update platform (homeassistant/components/mqtt/update.py: DISCOVERY_SCHEMA on
// MQTT_RO_SCHEMA and the entity's common keys; its state topic's JSON as _handle_state_message_received reads it).
// The running version is package.json's; the feed is read ten minutes after the start, then at most once a day, across a restart
// too, with nothing sent but the request; `updates: false` sends none; in the app the entity is not announced. Its state is
// read as core computes it (test/helpers/ha-update.ts): never unknown, the running version the latest while none is known.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { VERSION } from '../../src/util/version.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';
import { closeHttp, listenOnLoopback } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { tempDir } from '../helpers/temp.js';
import { updateEntityState, type UpdateState } from '../helpers/ha-update.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const HOUR = 60;

/** A release feed as GitHub writes one: newest first, a pre-release and an older release among the entries. */
function atom(owner: string): string {
  const entry = (tag: string) => `
  <entry>
    <id>tag:github.com,2008:Repository/987654/${tag}</id>
    <updated>2026-12-01T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/${owner}/dziennik2mqtt/releases/tag/${tag}"/>
    <title>${tag}</title>
    <content type="html">&lt;h3&gt;Added&lt;/h3&gt;</content>
    <author><name>someone</name></author>
  </entry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/${owner}/dziennik2mqtt/releases</id>
  <title>Release notes from dziennik2mqtt</title>${['v9.1.0-rc.1', 'v9.0.0', 'v0.1.0', 'not-a-release'].map(entry).join('')}
</feed>
`;
}

/** A feed whose entries link to these pages (a hostile or broken feed's). */
function atomOf(hrefs: string[]): string {
  const entries = hrefs.map((href) => `<entry><link rel="alternate" type="text/html" href="${href}"/><title>t</title></entry>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">${entries.join('')}</feed>\n`;
}

/** The feed on this machine: what it answers (`trickle`: one byte every 2 s, never ending), and every request it was sent. */
class FeedServer {
  readonly requests: { method: string; url: string; headers: IncomingMessage['headers']; body: number }[] = [];
  answer: { status: number; body: string; trickle?: true } = { status: 200, body: atom('dziennik2mqtt') };
  url = '';
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = 0;
      req.on('data', (chunk: Buffer) => (body += chunk.length));
      req.on('end', () => {
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(this.answer.status, { 'content-type': 'application/atom+xml; charset=utf-8' });
        if (this.answer.trickle === undefined) return void res.end(this.answer.body);
        const every = setInterval(() => res.write(' '), 2_000);
        res.on('close', () => clearInterval(every));
      });
    });
    this.url = `http://127.0.0.1:${await listenOnLoopback(this.server)}/dziennik2mqtt/dziennik2mqtt/releases.atom`;
  }

  stop(): Promise<void> {
    return closeHttp(this.server);
  }
}

/** What Home Assistant's MQTT update platform refuses or drops in a discovered component (empty: it takes all of it). */
function updateProblems(c: Record<string, unknown>): string[] {
  const known = new Set([
    // The update platform's own keys (PLATFORM_SCHEMA_MODERN) ...
    ...['p', 'command_topic', 'device_class', 'entity_picture', 'latest_version_template', 'latest_version_topic', 'name', 'payload_install'],
    ...['release_summary', 'release_url', 'retain', 'title', 'state_topic', 'value_template', 'qos', 'encoding'],
    // ... and MQTT_ENTITY_COMMON_SCHEMA's.
    ...['availability', 'availability_mode', 'availability_topic', 'availability_template', 'payload_available', 'payload_not_available'],
    ...['device', 'enabled_by_default', 'entity_category', 'icon', 'json_attributes_topic', 'json_attributes_template'],
    ...['default_entity_id', 'unique_id'],
  ]);
  const problems = Object.keys(c)
    .filter((key) => !known.has(key))
    .map((key) => `${key} is not a key of the update platform (dropped)`);
  const subscribeTopic = (t: unknown): boolean => typeof t === 'string' && t.length > 0 && !t.includes('\0') && !/[+#]/.test(t);
  if (c.p !== 'update') problems.push('not the update platform');
  if (!subscribeTopic(c.state_topic)) problems.push('state_topic must be a topic to subscribe to');
  if (c.command_topic !== undefined || c.payload_install !== undefined) problems.push('an install command the bridge does not answer');
  if (c.device_class !== undefined && c.device_class !== 'firmware') problems.push('device_class is firmware or none');
  if (c.entity_category !== undefined && !['config', 'diagnostic'].includes(c.entity_category as string)) problems.push('unknown entity_category');
  for (const key of ['name', 'title', 'release_url', 'release_summary', 'entity_picture'])
    if (c[key] !== undefined && c[key] !== null && typeof c[key] !== 'string') problems.push(`${key} must be a string`);
  if (typeof c.unique_id !== 'string') problems.push('unique_id missing');
  if (typeof c.default_entity_id !== 'string' || !c.default_entity_id.startsWith('update.')) problems.push('default_entity_id not an update entity');
  for (const a of (c.availability ?? []) as { topic?: unknown }[]) if (!subscribeTopic(a.topic)) problems.push('an availability topic is not one');
  return problems;
}

/** What the entity shows, as Home Assistant reads bridge/update: a JSON object of the versions and the notes' page. */
function shown(h: Harness): { installed_version?: unknown; latest_version?: unknown; release_url?: unknown } | undefined {
  const state = h.rec.json(`${h.base}/bridge/update`);
  expect(state === undefined || (typeof state === 'object' && state !== null && !Array.isArray(state))).toBe(true);
  return state as ReturnType<typeof shown>;
}

/**
 * The entity's state in Home Assistant (test/helpers/ha-update.ts, core's rule): as one that heard every payload of
 * bridge/update, and as one started now that reads the retained payload alone; the two must agree.
 */
function haState(h: Harness): UpdateState {
  const payloads = h.rec.texts(`${h.base}/bridge/update`);
  const [heard, retained] = [updateEntityState(payloads), updateEntityState(payloads.slice(-1))];
  expect(heard).toBe(retained);
  return retained;
}

const bridgeComponents = (h: Harness): Record<string, Record<string, unknown>> =>
  (h.rec.json(`${h.prefix}/device/${h.base}_bridge/config`) as { cmps: Record<string, Record<string, unknown>> }).cmps;

let feed: FeedServer;
beforeEach(async () => {
  feed = new FeedServer();
  await feed.start();
});
afterEach(() => feed.stop());

const start = async (dataDir: string, updates: { on?: boolean } = {}, more: Partial<HarnessOptions> = {}) =>
  school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password }],
    dataDir,
    version: VERSION,
    updates: { ...updates, releases: feed.url },
    // Few passes: a simulated day is over in a second or two (the check's timer is what these tests move the clock for).
    poll: { interval: '8h', fast_interval: '8h', school_interval: '8h' },
    ...more,
  });

describe('the update entity', () => {
  it("is announced on the bridge's device as Home Assistant's MQTT update platform takes it", async () => {
    const h = await start(await tempDir(), { on: true });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    const update = bridgeComponents(h).update as Record<string, unknown>;
    expect(updateProblems(update)).toEqual([]);
    expect(update).toMatchObject({
      p: 'update',
      unique_id: `${h.base}_bridge_update`,
      default_entity_id: `update.${h.base.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`,
      state_topic: `${h.base}/bridge/update`,
      availability: [{ topic: `${h.base}/bridge/state` }],
    });
  });

  it('shows the running version from the first pass, the newest release once the feed answers, read again only a day later', async () => {
    feed.answer = { status: 503, body: '' };
    const dataDir = await tempDir();
    const h = await start(dataDir, { on: true });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined && shown(h) !== undefined, 'the first pass');
    // Before the first read the running version is the latest: "up to date" in Home Assistant, never unknown.
    expect(shown(h)).toEqual({ installed_version: VERSION, latest_version: VERSION, release_url: null });
    expect(haState(h)).toBe('off');
    // The first read ten minutes after the start, not in its burst of requests.
    await h.advanceMinutes(9);
    expect(feed.requests).toEqual([]);
    await h.runUntil(() => feed.requests.length === 1, 'the first read', 60_000);
    // It failed: still up to date.
    await h.advanceMinutes(1);
    expect(haState(h)).toBe('off');

    // Nothing more is asked within the day, whatever the first read answered; a day after it, the feed answers.
    feed.answer = { status: 200, body: atom('dziennik2mqtt') };
    await h.advanceMinutes(24 * HOUR - 5);
    expect(feed.requests).toHaveLength(1);
    await h.advanceMinutes(10);
    await h.runUntil(() => shown(h)?.latest_version !== null, 'the newest release shown');
    expect(shown(h)).toEqual({
      installed_version: VERSION,
      latest_version: '9.0.0',
      release_url: 'https://github.com/dziennik2mqtt/dziennik2mqtt/releases/tag/v9.0.0',
    });
    expect(haState(h)).toBe('on');
    expect(feed.requests).toHaveLength(2);

    // Nothing but the request: a GET of the feed's address, no body, no header that tells the version, the install or the family.
    for (const request of feed.requests) {
      expect(request).toMatchObject({ method: 'GET', url: '/dziennik2mqtt/dziennik2mqtt/releases.atom', body: 0 });
      expect(Object.keys(request.headers).filter((name) => !['host', 'connection'].includes(name))).toEqual([]);
    }

    // A restart within the day keeps what was found and asks nothing.
    await h.restart();
    await h.runUntil(() => shown(h)?.latest_version === '9.0.0', 'the kept release after a restart');
    await h.advanceMinutes(12 * HOUR);
    expect(feed.requests).toHaveLength(2);
  });

  it('asks nothing with `updates: false`: the entity shows the running version, up to date', async () => {
    const h = await start(await tempDir(), { on: false });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined && shown(h) !== undefined, 'the first pass');
    expect(haState(h)).toBe('off');
    await h.advanceMinutes(25 * HOUR);
    expect(feed.requests).toEqual([]);
    expect(shown(h)).toEqual({ installed_version: VERSION, latest_version: VERSION, release_url: null });
    expect(haState(h)).toBe('off');
    expect(updateProblems(bridgeComponents(h).update as Record<string, unknown>)).toEqual([]);
  });

  it("is not announced in the app, whose update is the Supervisor's, and asks nothing there", async () => {
    const h = await start(await tempDir(), { on: true }, { supervisor: { token: 'supervisor-token', assist: false, publicUrl: undefined } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    await h.advanceMinutes(25 * HOUR);
    expect(feed.requests).toEqual([]);
    // Withdrawn (a component of its platform alone), so that one left from a Docker install on this broker goes too.
    expect(bridgeComponents(h).update).toEqual({ p: 'update' });
    expect(shown(h)).toBeUndefined();
  });

  it("takes from the feed only a version of a few digits under the project's repository, with a short address", async () => {
    const repo = 'https://github.com/dziennik2mqtt/dziennik2mqtt';
    feed.answer = {
      status: 200,
      body: atomOf([
        `${repo}/releases/tag/v1.${'1'.repeat(25)}.0`,
        `${repo}/releases/tag/v${'9'.repeat(10_000)}.0.0`,
        'https://example.com/dziennik2mqtt/dziennik2mqtt/releases/tag/v99.0.0',
        `${repo}-fork/releases/tag/v98.0.0`,
        `${repo}/releases/tag/v97.0.0?${'x'.repeat(900 * 1024)}`,
        `${repo}/releases/tag/v1.2.3`,
      ]),
    };
    const dataDir = await tempDir();
    const h = await start(dataDir, { on: true });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    await h.advanceMinutes(11);
    await h.runUntil(() => shown(h)?.latest_version === '1.2.3', 'the one true release shown', 60_000);
    expect(shown(h)).toEqual({ installed_version: VERSION, latest_version: '1.2.3', release_url: `${repo}/releases/tag/v1.2.3` });
    // Nothing retained over the cap: the entity's state and the file kept in data_dir stay small.
    expect(Buffer.byteLength(h.rec.on(`${h.base}/bridge/update`).at(-1)?.text ?? '')).toBeLessThan(400);
    expect((await readFile(join(dataDir, 'release.json'), 'utf8')).length).toBeLessThan(400);
  });

  it('ends a read of a feed that trickles a byte every 2 s by its deadline, and reads again a day later', async () => {
    feed.answer = { status: 200, body: '', trickle: true };
    const h = await start(await tempDir(), { on: true });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    await h.advanceMinutes(11);
    await h.runUntil(() => feed.requests.length === 1, 'the first read', 60_000);
    feed.answer = { status: 200, body: atom('dziennik2mqtt') };
    await h.advanceMinutes(24 * HOUR);
    await h.runUntil(() => shown(h)?.latest_version === '9.0.0', 'the next read, a day later', 60_000);
    expect(feed.requests).toHaveLength(2);
  });
});
