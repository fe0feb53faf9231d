// Events within what the broker takes (interface 19.2), through the real bridge, the simulated portal and
// the real Mosquitto: one pass of 60 new items across kinds and two children delivers every event in that
// pass, none refused and `problem` off, with Mosquitto's default receive maximum of 20 and with a private one
// that takes 3 at a time. Before, the bridge handed all at once and the broker refused the 21st on
// (0x97, quota exceeded), which the bridge told as an ACL problem.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';
import { LogSink } from '../helpers/faults.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { MQTT_URL, waitUntil } from '../helpers/mqtt.js';

const [ANIA, JAN] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
// Maths, Polish, science, history, English.
const SUBJECTS = [5012, 5011, 5014, 5013, 5015];
/** Per child, each kind under the flood's 20: told one event an item. */
const GIVEN = { grade: 15, notice: 10, message: 5 };

/** 15 grades, 10 notices and 5 messages for a child. */
function giveNews(login: string): void {
  const account = school.sim.account(login);
  for (let i = 0; i < GIVEN.grade; i++) account.addGrade({ subject: SUBJECTS[i % SUBJECTS.length]!, category: 1, grade: String(2 + (i % 5)) });
  for (let i = 0; i < GIVEN.notice; i++) account.addNotice({ Subject: `Ogłoszenie ${i + 1}`, Content: 'Treść ogłoszenia.' });
  for (let i = 0; i < GIVEN.message; i++) school.sim.messaging.addMessage(login, { topic: `Wiadomość ${i + 1}`, body: 'Treść wiadomości.' });
}

/** The events of the kinds given (a grade may add others: an achievement, a forecast changed). */
const events = (h: Harness): string[] =>
  h.rec.messages.map((m) => m.topic).filter((topic) => topic.startsWith(`${h.base}/`) && /\/event\/(grade|notice|message)$/.test(topic));

async function burst(mqttUrl: string): Promise<{ h: Harness; logs: LogSink }> {
  const logs = new LogSink();
  const accounts = [ANIA, JAN].map(({ login, password }) => ({ login, password }));
  const h = await school.start({ accounts, mqttUrl, log: logs.logger('info') });
  await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined && h.state('jan', 'newest_grade') !== undefined, 'the first passes');
  await h.advanceMinutes(20);
  const before = events(h).length;
  giveNews(ANIA.login);
  giveNews(JAN.login);
  // A refresh of each child: one pass each reads every list a family hears of.
  for (const child of ['ania', 'jan']) await h.rec.publish(`${h.base}/${child}/refresh/set`, '');
  await waitUntil(() => ['ania', 'jan'].every((child) => h.rec.on(`${h.base}/${child}/refresh/result`).length > 0), 'both refreshes', 30_000);
  // Within those passes (the clock stands still: no later pass may send what one refused).
  await waitUntil(() => events(h).length - before >= 60, 'the 60 events', 10_000).catch(() => undefined);
  const told = events(h).slice(before);
  for (const child of ['ania', 'jan'])
    for (const [kind, count] of Object.entries(GIVEN))
      expect(
        told.filter((t) => t === `${h.base}/${child}/event/${kind}`),
        `${child} ${kind}`,
      ).toHaveLength(count);
  expect(logs.matching(/MQTT broker refused|not delivered/)).toEqual([]);
  expect(h.rec.on(`${h.base}/bridge/problem`).map((m) => m.text)).not.toContain('ON');
  return { h, logs };
}

describe('one pass of 60 new items across kinds and two children', () => {
  it('delivers every event in that pass through Mosquitto with its default settings (20 in flight), none refused, problem off', async () => {
    await burst(MQTT_URL);
  }, 90_000);

  it('delivers every event in that pass through a broker that takes 3 at a time', async (ctx) => {
    const broker = new PrivateMosquitto({
      config: async (port) => `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_inflight_messages 3\n`,
    });
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    await burst(broker.url);
  }, 90_000);
});
