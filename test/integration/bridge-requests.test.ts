// Bridge requests as zigbee2mqtt has them (interface 6.4), against the real broker and the simulator:
// each answered on bridge/response/<name> with the transaction echoed, bad ones answered with an error
// and changing nothing, and the bridge device's log level select wired to the options request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/app.js';
import { LogSink } from '../helpers/faults.js';
import { waitUntil } from '../helpers/mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;

let sim: PortalSimulator;
let clock: FakeClock;
let h: Harness;
let logs: LogSink;

beforeEach(async () => {
  clock = new FakeClock('2026-11-18T09:10:00+01:00');
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  logs = new LogSink();
  h = await startHarness({ sim, clock, accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }], log: logs.logger('info') });
  await h.runUntil(() => h.state('ania', 'last_update') !== undefined && h.state('ania', 'lucky_number') !== undefined, 'the first pass');
});

afterEach(async () => {
  await h.stop();
  await sim.stop();
});

/** Publishes a request and resolves to the next answer on its response topic. */
async function request(name: string, payload: string, topic = `${h.base}/bridge/request/${name}`): Promise<Record<string, unknown>> {
  const responses = `${h.base}/bridge/response/${name}`;
  const n = h.rec.on(responses).length;
  await h.rec.publish(topic, payload);
  await waitUntil(() => h.rec.on(responses).length > n, `the answer to ${name}`, 10_000);
  return JSON.parse(h.rec.on(responses)[n]!.text) as Record<string, unknown>;
}

function infoLevel(): unknown {
  return (h.rec.json(`${h.base}/bridge/info`) as { log_level?: unknown } | undefined)?.log_level;
}

/** Lines the child's pass runner logged (`pass done` comes from a child logger made at start). */
const passesLogged = (): number => logs.matching(/"msg":"pass done"/).length;

describe('bridge requests', () => {
  it('health_check: every child with online and last_update, the transaction echoed', async () => {
    expect(await request('health_check', '{"transaction":"t-1"}')).toEqual({
      status: 'ok',
      data: { healthy: true, children: { ania: { online: true, last_update: h.state('ania', 'last_update'), problem: null } } },
      transaction: 't-1',
    });
    expect(await request('health_check', 'anything')).toMatchObject({ status: 'ok', data: { healthy: true } });
  });

  it('refresh: a pass of every child now, answered once the passes are done', async () => {
    const grades = (): number => sim.count({ path: '/gateway/api/2.0/Grades' });
    const before = grades();
    expect(await request('refresh', '{"transaction":42}')).toEqual({ status: 'ok', data: { children: ['ania'] }, transaction: 42 });
    expect(grades()).toBe(before + 1);
  });

  it('refresh: a note written a moment ago fires its event at once (a refresh reads every list of records)', async () => {
    const account = sim.account(ANIA.login);
    const text = 'Wzorowe zachowanie na wycieczce.';
    account.addRecord('Notes', {
      Id: 3199,
      Text: text,
      Category: '@Notes/Categories/1',
      Teacher: '@Users/162001',
      Date: '{{today}}',
      Positive: 1,
      AddDate: account.stamp(),
    });
    await request('refresh', '');
    await waitUntil(() => h.rec.on(`${h.base}/ania/event/note`).length > 0, 'the note event', 10_000);
    expect(JSON.parse(h.rec.on(`${h.base}/ania/event/note`)[0]!.text)).toMatchObject({ event_type: 'note', text });
  });

  it('options: the log level changes at once for every logger, bridge/info says so', async () => {
    expect(infoLevel()).toBe('info');
    await request('refresh', '');
    const passes = passesLogged();
    expect(passes).toBeGreaterThan(0);

    expect(await request('options', '{"log_level":"warn","transaction":"lv"}')).toEqual({
      status: 'ok',
      data: { log_level: 'warn', restart_required: false },
      transaction: 'lv',
    });
    await waitUntil(() => infoLevel() === 'warn', 'bridge/info with the new level');
    await clock.advance(61_000); // a refresh within a minute of the last one joins it, without a pass
    await request('refresh', '');
    expect(passesLogged()).toBe(passes); // the child's logger, made at start, follows the change

    await request('options', '{"log_level":"info"}');
    await clock.advance(61_000);
    await request('refresh', '');
    expect(passesLogged()).toBe(passes + 1);
  });

  it('bad payloads and unknown requests: an error answer, the transaction echoed, nothing changed', async () => {
    const bad: [string, string][] = [
      ['options', '{"log_level":"loud","transaction":"a"}'],
      ['options', '{"log_level":3}'],
      ['options', '{"restart":true,"log_level":"debug"}'],
      ['options', '{}'],
      ['options', '{"log_level": "debug"'],
      ['options', '["debug"]'],
      ['options', '{"log_level":"debug","transaction":{"x":1}}'],
      ['restart', '{"transaction":"b"}'],
      ['set', '{}'], // also matches the children's command filter <base>/+/+/set
    ];
    for (const [name, payload] of bad) {
      const answer = await request(name, payload);
      expect(answer, `${name} ${payload}`).toMatchObject({ status: 'error' });
      expect(typeof answer.error, `${name} ${payload}`).toBe('string');
      expect(answer.data).toBeUndefined();
    }
    expect((await request('options', '{"log_level":"loud","transaction":"a"}')).transaction).toBe('a');
    expect((await request('restart', '{"transaction":"b"}')).error).toContain('unknown request "restart"');
    await request('health_check', ''); // anything published before it has been handled
    expect(infoLevel()).toBe('info');
    expect(h.app.info().log_level).toBe('info');
    // The pass settings as the bridge runs them, the news interval while lessons are on included.
    expect(h.rec.json(`${h.base}/bridge/info`)).toMatchObject({ config: { poll_interval: '20m', fast_interval: '3m', school_interval: '5m' } });
  });

  it('summary: the button fires summary_requested once, naming the children, for the AI summary blueprint', async () => {
    const config = h.rec.json(`${h.prefix}/device/${h.base}_bridge/config`) as { cmps: Record<string, Record<string, unknown>> };
    // One per bridge: button.<base>_summary_now, "Podsumowanie tygodnia teraz" in Polish, pressing the summary request.
    expect(config.cmps.summary_now).toMatchObject({
      p: 'button',
      default_entity_id: `button.${h.base}_summary_now`,
      command_topic: `${h.base}/bridge/request/summary`,
      payload_press: '{}',
    });
    expect(config.cmps.summary_requested).toMatchObject({
      p: 'event',
      default_entity_id: `event.${h.base}_summary_requested`,
      state_topic: `${h.base}/bridge/event/summary_requested`,
      event_types: ['summary_requested'],
    });
    const events = `${h.base}/bridge/event/summary_requested`;
    expect(await request('summary', '{}')).toEqual({ status: 'ok', data: { children: ['ania'] } });
    await waitUntil(() => h.rec.on(events).length > 0, 'the event', 10_000);
    expect(h.rec.on(events).map((m) => JSON.parse(m.text) as unknown)).toEqual([{ event_type: 'summary_requested', children: ['ania'] }]);
    // A field it does not take: an error answer, and no event.
    expect(await request('summary', '{"children":["x"]}')).toMatchObject({ status: 'error' });
    expect(h.rec.on(events)).toHaveLength(1);
  });

  it('summary: 100 presses in a minute fire at most 2 events, the presses after the first joining the second', async () => {
    const events = `${h.base}/bridge/event/summary_requested`;
    const responses = `${h.base}/bridge/response/summary`;
    // 100 presses over 50 seconds, ten every 5 seconds.
    for (let i = 0; i < 100; i++) {
      await h.rec.publish(`${h.base}/bridge/request/summary`, `{"transaction":${i}}`);
      if (i % 10 === 9) await clock.advance(5_000);
    }
    await request('health_check', ''); // every press published before it has been taken
    expect(h.rec.on(events)).toHaveLength(1);
    await clock.advance(15_000); // the minute since the first event ends: the one every later press joined fires
    await waitUntil(() => h.rec.on(responses).length === 100, 'an answer to every press', 10_000);
    expect(h.rec.on(events)).toHaveLength(2);
    const answers = h.rec.on(responses).map((m) => JSON.parse(m.text) as { status: string; transaction: number });
    expect(answers.every((a) => a.status === 'ok')).toBe(true);
    expect(new Set(answers.map((a) => a.transaction)).size).toBe(100);
  });

  it('the bridge device has a connectivity sensor and a log level select that drives the options request', async () => {
    const config = h.rec.json(`${h.prefix}/device/${h.base}_bridge/config`) as { cmps: Record<string, Record<string, unknown>> };
    expect(config.cmps.connection_state).toMatchObject({
      p: 'binary_sensor',
      device_class: 'connectivity',
      state_topic: `${h.base}/bridge/state`,
      payload_on: 'online',
      payload_off: 'offline',
    });
    expect(config.cmps.connection_state).not.toHaveProperty('availability');
    const select = config.cmps.log_level!;
    expect(select).toMatchObject({ p: 'select', options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace'], entity_category: 'config' });

    // What Home Assistant does when a user picks "debug": render command_template, publish it.
    const payload = String(select.command_template).replace('{{ value }}', 'debug');
    expect(await request('options', payload, String(select.command_topic))).toMatchObject({ status: 'ok', data: { log_level: 'debug' } });
    // ...and how it reads the state back.
    expect(select.state_topic).toBe(`${h.base}/bridge/info`);
    expect(select.value_template).toBe('{{ value_json.log_level }}');
    await waitUntil(() => infoLevel() === 'debug', 'the select state debug');
  });
});
