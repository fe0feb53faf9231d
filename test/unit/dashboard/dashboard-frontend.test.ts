// The generated dashboard as Home Assistant's frontend acts on it (test/helpers/lovelace-frontend.ts, a model written
// from the frontend's source): every card opens in its visual editor (its struct accepts every key), every button
// row or tile presses its button rather than opening a dialog, and the Bridge view offers the bridge's update and
// the weekly summary on demand. In every language, for a school child, a kindergarten child, one child and several.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild, type DashboardExtras } from '../../../src/outputs/homeassistant/dashboard.js';
import { LANGUAGES } from '../../../src/config/language.js';
import { ENTITIES, sendButton } from '../../../src/features/index.js';
import { bridgeEntityIds } from '../../../src/outputs/mqtt/discovery.js';
import { buttonsOffered, editorRefuses, innerCards, rowDoes, shownCards, type HaStates } from '../../helpers/lovelace-frontend.js';

type Node = Record<string, unknown>;

const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: [...ENTITIES, sendButton('sick', 'Zgłoś nieobecność')] };
const jan: DashboardChild = { id: 'jan', name: 'Jan', entities: ENTITIES };
const zofia: DashboardChild = { id: 'zofia', name: 'Zofia', entities: ENTITIES, kind: 'kindergarten' };
const FAMILIES: Readonly<Record<string, readonly DashboardChild[]>> = { school: [ania], kindergarten: [zofia], several: [ania, jan, zofia] };
const EXTRAS: readonly DashboardExtras[] = [
  {},
  { statistics: true, boardUrl: 'http://192.168.1.5:8099/', baseTopic: 'Szkoła-2' },
  { boardUrl: '/hassio/ingress/abc_dziennik2mqtt' },
];

/** Every dashboard the command can write for these families, read back as Home Assistant loads the YAML. */
const DASHBOARDS = LANGUAGES.flatMap((lang) =>
  Object.entries(FAMILIES).flatMap(([family, children]) =>
    EXTRAS.map((extras) => ({
      name: `${lang} ${family} ${JSON.stringify(extras)}`,
      extras,
      views: (parse(dashboardYaml(children, lang, extras), { version: '1.1' }) as { views: { path: string; sections: Node[] }[] }).views,
    })),
  ),
);

const sections = (views: readonly { sections: Node[] }[]) => views.flatMap((v) => v.sections);

describe('the dashboard as the frontend acts on it', () => {
  it('opens every card in its editor: each key one the card type accepts, each required key there', () => {
    for (const { name, views } of DASHBOARDS) {
      for (const v of views)
        expect(
          sections([v]).flatMap((s, i) => editorRefuses(s, `${v.path}[${i}]`)),
          name,
        ).toEqual([]);
    }
  });

  it('presses each button it offers when the parent taps it, never opening a dialog instead', () => {
    for (const { name, views } of DASHBOARDS) {
      const offered = sections(views).flatMap(buttonsOffered);
      expect(offered.length, name).toBeGreaterThan(3);
      for (const b of offered) expect(b, name).toEqual({ entity: b.entity, does: 'press' });
    }
    // Ania's refresh, a row that asks nothing, reads now.
    const bridge = DASHBOARDS[0]!.views.find((v) => v.path === 'bridge')!;
    expect(sections([bridge]).flatMap(buttonsOffered)).toContainEqual({ entity: 'button.ania_refresh', does: 'press' });
  });

  it("shows the bridge's update and its weekly summary now in the Bridge view, the summary's button pressing it", () => {
    for (const { name, views, extras } of DASHBOARDS) {
      const ids = bridgeEntityIds(extras.baseTopic ?? 'dziennik2mqtt');
      const bridge = views.find((v) => v.path === 'bridge')!;
      const cards = sections([bridge]).flatMap(function all(c: Node): Node[] {
        return [c, ...innerCards(c).flatMap(all), ...((c.entities as Node[] | undefined) ?? [])];
      });
      expect(
        cards.filter((c) => c.entity === ids.update && c.type === 'tile'),
        name,
      ).toHaveLength(1);
      const summary = cards.find((c) => c.entity === ids.summaryNow);
      expect(summary && rowDoes(summary), name).toBe('press');
    }
  });

  it('shows no tile of an entity Home Assistant lacks: the figures off by default, the update the app does not have', () => {
    const { views } = DASHBOARDS[0]!;
    const ids = bridgeEntityIds('dziennik2mqtt');
    const lacking = [ids.memory, ids.update, 'sensor.ania_requests_today', 'sensor.ania_last_read', 'sensor.ania_session_age'];
    const shown = (states: HaStates) =>
      sections(views)
        .flatMap((s) => shownCards(s, states))
        .flatMap(({ card }) => (card.type === 'tile' ? [card.entity] : []));
    // A missing entity reads as unknown to a condition, as one announced before its first state.
    expect(shown({}).filter((id) => lacking.includes(String(id)))).toEqual([]);
    expect(shown(Object.fromEntries(lacking.map((id) => [id, { state: '1' }])))).toEqual(expect.arrayContaining(lacking));
  });
});
