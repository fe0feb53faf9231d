// The config's `language` end to end: the real bridge against the simulated portal and the real broker
// names the entities, the device's model line and the problem advice in it; ids stay English.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';
import type { Language } from '../../src/config/language.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
const NOW = '2026-11-18T09:10:00+01:00';

interface DeviceConfig {
  dev: { model?: string };
  cmps: Record<string, { name?: string; default_entity_id?: string; unique_id?: string }>;
}

const school = simulatedSchool(NOW);
let h: Harness | undefined;

/** Ania logs in; Janek's parent typed a wrong password. Returns Ania's device config and Janek's problem. */
async function firstPass(language?: Language, http?: { port: number }): Promise<{ ania: DeviceConfig; problem: Record<string, unknown> }> {
  h = await school.start({
    language,
    ...(http ? { http } : {}),
    accounts: [
      { login: ANIA.login, password: ANIA.password, id: 'ania', messages: [...(ANIA.messages ?? [])] },
      { login: JANEK.login, password: 'wrong', id: 'janek' },
    ],
  });
  const harness = h;
  const configTopic = `${harness.prefix}/device/${harness.base}_ania/config`;
  await harness.runUntil(
    () =>
      harness.state('ania', 'last_update') !== undefined &&
      harness.state('ania', 'briefing') !== undefined &&
      harness.state('janek', 'problem') === 'ON' &&
      (harness.rec.json(configTopic) as DeviceConfig | undefined)?.dev.model !== undefined,
    'the first pass of both accounts',
  );
  return { ania: harness.rec.json(configTopic) as DeviceConfig, problem: harness.attributes('janek', 'problem') ?? {} };
}

describe('language', () => {
  it('is Polish by default: entity names, the class and the problem advice; ids stay English', async () => {
    const { ania, problem } = await firstPass();
    expect(ania.dev.model).toBe('Klasa 4b');
    expect(ania.cmps.lucky_number).toMatchObject({
      name: 'Szczęśliwy numerek',
      default_entity_id: 'sensor.ania_lucky_number',
      unique_id: `${h!.base}_ania_lucky_number`,
    });
    expect(ania.cmps.unread_messages?.name).toBe('Nieprzeczytane wiadomości');
    expect(ania.cmps.refresh).toMatchObject({ name: 'Odśwież', default_entity_id: 'button.ania_refresh' });
    expect(ania.cmps.send_sick?.name).toBe('Zgłoś nieobecność');
    expect(problem.reason).toBe('wrong_credentials');
    // The portal's own words first (live-notes 13), then the advice in the configured language.
    expect(problem.message).toMatch(/^Portal odpowiedział: „.+”\. Portal nie przyjął loginu lub hasła\./);
  });

  it('is English with language: en, with the very same ids', async () => {
    const { ania, problem } = await firstPass('en');
    expect(ania.dev.model).toBe('Class 4b');
    expect(ania.cmps.lucky_number).toMatchObject({
      name: 'Lucky number',
      default_entity_id: 'sensor.ania_lucky_number',
      unique_id: `${h!.base}_ania_lucky_number`,
    });
    expect(ania.cmps.refresh).toMatchObject({ name: 'Refresh', default_entity_id: 'button.ania_refresh' });
    // A fixed message button keeps the name the parent configured, whatever the language.
    expect(ania.cmps.send_sick?.name).toBe('Zgłoś nieobecność');
    expect(problem.reason).toBe('wrong_credentials');
    expect(problem.message).toMatch(/^The portal said: ".+"\. The portal did not accept the login or password\./);
  });

  it("is Ukrainian with language: uk: names, the class, the problem, the briefing and the board; ids and the school's words stay", async () => {
    const port = await freePort();
    const { ania, problem } = await firstPass('uk', { port });
    expect(ania.dev.model).toBe('Клас 4b');
    expect(ania.cmps.lucky_number).toMatchObject({ name: 'Щасливий номер', default_entity_id: 'sensor.ania_lucky_number' });
    expect(ania.cmps.unread_messages?.name).toBe('Непрочитані повідомлення');
    expect(ania.cmps.briefing).toMatchObject({ name: 'Огляд дня', default_entity_id: 'sensor.ania_briefing' });
    expect(ania.cmps.send_sick?.name).toBe('Zgłoś nieobecność');
    expect(problem.message).toMatch(/^Портал відповів: «.+»\. Портал не прийняв логін або пароль\./);

    // Wednesday 18 November 2026 at 9:10, during the lessons: today's briefing, subjects as the school wrote them.
    const briefing = h!.state('ania', 'briefing')!;
    expect(briefing).toMatch(/^Сьогодні \d{1,2}:\d\d–\d{1,2}:\d\d, \d+ урок/);
    expect(briefing.length).toBeLessThanOrEqual(255);
    const attributes = h!.attributes('ania', 'briefing') ?? {};
    expect(attributes.day).toBe('2026-11-18');
    expect(attributes.text).toMatch(/^Сьогодні уроки з \d{1,2}:\d\d до \d{1,2}:\d\d\. По черзі: /);
    expect(attributes.text).toMatch(/Matematyka|Język polski/);

    const token = (await readFile(join(h!.dataDir, 'http-token'), 'utf8')).trim();
    const board = JSON.parse((await send(port, `/api/board?token=${token}`)).body) as {
      model: {
        language: string;
        labels: { title: string };
        children: { id: string; className: string | null; briefing: string | null; facts: { label: string }[] }[];
      };
    };
    expect(board.model.language).toBe('uk');
    expect(board.model.labels).toMatchObject({ title: 'Шкільна дошка' });
    const card = board.model.children.find((c) => c.id === 'ania');
    // The features' facts are labelled by their entities' names in the language: the lucky number's, the unread counts'.
    expect(card?.facts.map((f) => f.label)).toEqual(expect.arrayContaining(['Щасливий номер', 'Повідомлення']));
    expect(card?.className).toBe('Клас 4b');
    expect(card?.briefing).toBe(briefing);
    const page = (await send(port, `/?token=${token}`)).body;
    expect(page).toContain('<html lang="uk"');
  });
});
