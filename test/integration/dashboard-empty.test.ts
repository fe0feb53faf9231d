// No card of the generated dashboard is an empty box, as Home Assistant shows it (test/helpers/lovelace-frontend.ts:
// a card's visibility and conditions as the frontend checks them, a framed markdown card whose text renders to
// nothing): against the states the real bridge published for a school child and a kindergarten child of the
// simulated school, one child and several, in every language; and again with every list the bridge published
// empty (nothing differs from the standing plan, no news), the quiet week a family has too.
import { describe, expect, it } from 'vitest';
import { dashboard, type DashboardChild } from '../../src/outputs/homeassistant/dashboard.js';
import { LANGUAGES } from '../../src/config/language.js';
import { ENTITIES } from '../../src/features/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { renderTemplates, skipWithoutJinja } from '../helpers/blueprints.js';
import { publishedStates, type HaStates } from '../helpers/dashboard-shown.js';
import { emptyBox, shownCards } from '../helpers/lovelace-frontend.js';
import { simulatedSchool } from '../helpers/school.js';

// A Monday's second lesson: a school day in progress, a kindergarten's day too.
const NOW = '2026-11-23T09:30:00+01:00';
const school = simulatedSchool(NOW);

type Node = Record<string, unknown>;

const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };
const zosia: DashboardChild = { id: 'zosia', name: 'Zosia', entities: ENTITIES, kind: 'kindergarten' };
const FAMILIES = [[ania], [zosia], [ania, zosia]];

/** The same states with every list attribute empty. */
function quiet(states: HaStates): HaStates {
  const emptied = (attributes: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, Array.isArray(v) ? [] : v]));
  return Object.fromEntries(Object.entries(states).map(([id, s]) => [id, { ...s, attributes: emptied(s.attributes) }]));
}

/** Each shown card of the dashboard that is an empty box against the states, by view and place. */
async function emptyBoxes(doc: { views: Node[] }, states: HaStates): Promise<string[]> {
  const shown = doc.views.flatMap((v) => (v.sections as Node[]).flatMap((s, i) => shownCards(s, states, `${String(v.path)}[${i}]`)));
  const markdown = shown.filter(({ card }) => card.type === 'markdown');
  const results = await renderTemplates(
    markdown.map(({ card }) => ({ template: String(card.content), variables: {}, states, strict: true, now: NOW })),
  );
  const text = new Map(markdown.map(({ card }, i) => [card.content, results[i]!]));
  return shown
    .filter(({ card }) =>
      emptyBox(card, (content) => {
        const r = text.get(content)!;
        return 'error' in r ? `ERROR ${r.error}` : String(r.value);
      }),
    )
    .map(
      ({ at, card }) =>
        `${at}: ${
          String(card.content ?? '')
            .match(/set \w+ = "\w+\.\w+"/g)
            ?.join(', ') ?? ''
        }`,
    );
}

describe.skipIf(skipWithoutJinja())('no card of the dashboard is an empty box (python3-jinja2)', () => {
  it('shows no empty box for a school child and a kindergarten child, in every language, on a busy day and a quiet one', async () => {
    const accounts = [
      { ...DEMO_ACCOUNTS[0]!, id: 'ania' },
      { ...DEMO_ACCOUNTS[2]!, id: 'zosia' },
    ].map(({ login, password, id }) => ({ login, password, id }));
    const h = await school.start({ accounts });
    const keys = ['timetable_today', 'timetable_tomorrow', 'newest_message', 'unread_notices'];
    await h.runUntil(() => ['ania', 'zosia'].every((c) => keys.every((k) => h.state(c, k) !== undefined)), 'both children read');
    // The standing plan is read after the first pass: this and next week differ from it in the simulated school.
    const differences = () => h.attributes('ania', 'timetable_today')?.standing_differences;
    await h.advanceUntil(() => Array.isArray(differences()) && (differences() as unknown[]).length > 0, 'the standing plan read', 40);
    const published = { ...publishedStates(h, 'ania'), ...publishedStates(h, 'zosia') };
    for (const states of [published, quiet(published)]) {
      for (const lang of LANGUAGES) {
        for (const family of FAMILIES) {
          const name = `${lang} ${family.map((c) => c.id).join('+')} ${states === published ? 'busy' : 'quiet'}`;
          expect(await emptyBoxes(dashboard(family, lang) as { views: Node[] }, states), name).toEqual([]);
        }
      }
    }
  }, 120_000);
});
