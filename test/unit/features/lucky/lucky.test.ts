// The lucky feature: its entities, lucky_number / lucky_today rendered from its rule, and its parts of the
// board and the dashboard as a parent sees them.
import { describe, expect, it } from 'vitest';
import { lucky, renderLucky } from '../../../../src/features/lucky/lucky.js';
import { luckyToday } from '../../../../src/features/lucky/rules.js';
import { entityTable } from '../../../helpers/entities.js';
import { parse } from 'yaml';
import type { EntityState } from '../../../../src/engine/state.js';
import type { Language } from '../../../../src/config/language.js';
import { shownChild } from '../../../../src/features/screens/parts.js';
import { warsawInstant } from '../../../../src/util/time.js';
import { dashboardYaml } from '../../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../../src/features/index.js';
import { skipWithoutJinja } from '../../../helpers/blueprints.js';
import { shownView } from '../../../helpers/dashboard-shown.js';

describe('lucky feature', () => {
  it('declares lucky_number, lucky_today and the lucky event', () => {
    expect(entityTable(lucky.entities)).toEqual([
      ['lucky_number', 'sensor', true],
      ['lucky_today', 'binary_sensor', false],
      ['lucky', 'event', false],
    ]);
  });

  it.each([
    // number, its day, the child's register number, today -> lucky_number, day, lucky_today
    // The next school day's number, shown a day early: lucky_today waits for its day.
    [12, '2026-11-19', '12', '2026-11-18', '12', '2026-11-19', 'OFF'],
    [12, '2026-11-19', '12', '2026-11-19', '12', '2026-11-19', 'ON'],
    [12, '2026-11-19', '3', '2026-11-19', '12', '2026-11-19', 'OFF'],
    [12, '2026-11-17', '12', '2026-11-18', null, null, 'OFF'],
  ] as const)('number %s of %s, register number %s, on %s: %s of %s, %s', (number, day, mine, today, state, shownDay, on) => {
    const states = renderLucky(luckyToday({ number, day }, mine, today));
    expect(states.lucky_number?.state).toBe(state);
    expect(states.lucky_number?.attributes.day ?? null).toBe(shownDay);
    expect(states.lucky_number?.attributes.register_number).toBe(mine);
    expect(states.lucky_today?.state).toBe(on);
  });
});

/** A child's published states as the board's parts read them, on Wednesday 18.11. */
function shown(states: Record<string, EntityState>, language: Language = 'pl') {
  return shownChild(new Map(Object.entries(states)), language, warsawInstant('2026-11-18', '10:00'));
}

describe("lucky's screens", () => {
  it('puts the number on the board as a badge, its day named when not today, marked when it is the child', () => {
    expect(lucky.board?.(shown({ lucky_number: { state: '13', attributes: { day: '2026-11-18', register_number: '7', mine: false } } }))).toEqual({
      facts: [{ look: 'badge', label: 'Szczęśliwy numerek', value: '13', mark: null }],
    });
    // Whose it is as the feature says it (`mine`), not worked out again from the register number.
    const told = { lucky_number: { state: '7', attributes: { day: '2026-11-18', register_number: '9', mine: true } } };
    expect(lucky.board?.(shown(told))?.facts).toMatchObject([{ mark: 'To Ty!' }]);
    const tomorrowMine = { lucky_number: { state: '7', attributes: { day: '2026-11-19', register_number: '7', mine: true } } };
    expect(lucky.board?.(shown(tomorrowMine))?.facts).toMatchObject([{ label: 'Szczęśliwy numerek na jutro', mark: 'To Ty!' }]);
    expect(lucky.board?.(shown(tomorrowMine, 'uk'))?.facts).toMatchObject([{ label: 'Щасливий номер на завтра', mark: 'Це ти!' }]);
  });

  it('shows nothing on the board without a number: a school without it, or no state yet', () => {
    expect(lucky.board?.(shown({ lucky_number: { state: null, attributes: { day: null, register_number: '7', in_use: false } } }))).toBeNull();
    expect(lucky.board?.(shown({}))).toBeNull();
  });

  it.skipIf(skipWithoutJinja())(
    "says the number in the dashboard's summary line with its day when it is a later day's, beside the unread counts",
    async () => {
      const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
        views: Record<string, unknown>[];
      };
      const states = {
        'sensor.ania_lucky_number': { state: '14', attributes: { day: '2026-11-26', register_number: '3', mine: false, in_use: true } },
        'binary_sensor.ania_lucky_today': { state: 'off', attributes: {} },
        'sensor.ania_unread_messages': { state: '2', attributes: {} },
      };
      const texts = (await shownView(doc, 'family', states, '2026-11-25T09:30:00+01:00')).flatMap((s) => s.texts);
      expect(texts).toContain('🍀 Szczęśliwy numerek (czw. 26.11): **14** · ✉️ Nieprzeczytane wiadomości: **2**');
      // Today's number, the child's: the banner over the column, the number without its day.
      states['sensor.ania_lucky_number'].attributes.day = '2026-11-25';
      states['sensor.ania_lucky_number'].attributes.register_number = '14';
      states['sensor.ania_lucky_number'].attributes.mine = true;
      states['binary_sensor.ania_lucky_today'].state = 'on';
      // Markdown's character references read back, as a parent sees them.
      const read = (texts: string[]) => texts.map((t) => t.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))));
      const today = read((await shownView(doc, 'family', states, '2026-11-25T09:30:00+01:00')).flatMap((s) => s.texts));
      expect(today.slice(0, 2)).toEqual([
        '### 🍀 Szczęśliwy numerek: to Ty, Ania!',
        '🍀 Szczęśliwy numerek: **14** – To Ty! · ✉️ Nieprzeczytane wiadomości: **2**',
      ]);
      // In the evening, tomorrow's number is hers: lucky_today stays off, the summary line says whose it is.
      states['sensor.ania_lucky_number'].attributes.day = '2026-11-26';
      states['binary_sensor.ania_lucky_today'].state = 'off';
      const evening = read((await shownView(doc, 'family', states, '2026-11-25T19:30:00+01:00')).flatMap((s) => s.texts));
      expect(evening[0]).toBe('🍀 Szczęśliwy numerek (czw. 26.11): **14** – To Ty! · ✉️ Nieprzeczytane wiadomości: **2**');
    },
  );
});
