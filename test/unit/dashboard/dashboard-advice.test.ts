// The bridge view shows the portal's advice to change the password (issue 27) while `problem` carries
// it, OFF as it stays: its template rendered by Jinja2 as Home Assistant renders it, in each language.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { passwordChangeAdvice } from '../../../src/i18n/problem-advice.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The cards of Ania's section in the bridge view. */
function bridgeCards(lang: 'pl' | 'en' | 'uk'): Node[] {
  const doc = parse(dashboardYaml([ania], lang), { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
  return doc.views.find((v) => v.path === 'bridge')!.sections.flatMap((s) => s.cards);
}

/** The markdown cards of Ania's section in the bridge view, a conditional card's own among them. */
function bridgeMarkdown(lang: 'pl' | 'en' | 'uk'): string[] {
  return bridgeCards(lang)
    .map((c) => (c.type === 'conditional' ? (c.card as Node) : c))
    .filter((c) => c.type === 'markdown')
    .map((c) => c.content as string);
}

async function render(template: string, attributes: Record<string, unknown>): Promise<string> {
  const states = { 'binary_sensor.ania_problem': { state: 'off', attributes } };
  const [result] = await renderTemplates([{ template, variables: {}, states }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return String(result.value).trim();
}

describe.skipIf(skipWithoutJinja())('the bridge view and the password advice', () => {
  it.each(['en', 'pl', 'uk'] as const)(
    "shows the advice in %s once, in the bridge's words, and a sentence of its own before problem carries them",
    async (lang) => {
      const cards = bridgeMarkdown(lang);
      const advice = cards.find((c) => c.includes("'advice_message'"));
      expect(advice, 'an advice card in the bridge view').toBeDefined();
      const words = passwordChangeAdvice(lang);
      const shown = await render(advice!, { reason: null, advice: 'password_change_advised', advice_message: words });
      // The advice said once: the bridge's words are the whole of it, with no lead that repeats their start.
      expect(shown).toBe(`<ha-alert alert-type="info">${words}</ha-alert>`);
      // Shown (password_change_advised on) before problem carries the words: the card's own sentence, never an empty box.
      const lead = {
        en: 'The portal advises changing this account’s password.',
        pl: 'Portal zaleca zmianę hasła tego konta.',
        uk: 'Портал радить змінити пароль цього облікового запису.',
      };
      expect(await render(advice!, { reason: null })).toBe(`<ha-alert alert-type="info">${lead[lang]}</ha-alert>`);
    },
  );

  it('has no card in the bridge view unless the portal advises it: shown only while password_change_advised is on', () => {
    const cards = bridgeCards('pl');
    // Every markdown card of the view is shown by a condition: none is an empty box while there is nothing to say.
    expect(cards.filter((c) => c.type === 'markdown')).toEqual([]);
    const advice = cards.find((c) => c.type === 'conditional' && String((c.card as Node).content).includes("'advice_message'"));
    expect(advice?.conditions).toEqual([{ condition: 'state', entity: 'binary_sensor.ania_password_change_advised', state: 'on' }]);
  });

  // A tile in a section (about 380 px wide at 1280x800) leaves its name the tile's width less about 74 px
  // (padding, icon, gaps); at 14 px about 7.2 px a letter. A longer name is cut ("Zapyt…").
  it.each(['en', 'pl', 'uk'] as const)('names every tile of the bridge view in full in %s', (lang) => {
    const doc = parse(dashboardYaml([ania], lang), { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
    const cut: string[] = [];
    const named: string[] = [];
    // `across`: how many cards share the section's width on this card's row.
    const walk = (card: Node, across: number): void => {
      const cards = (card.cards ?? []) as Node[];
      if (card.type === 'conditional') return walk(card.card as Node, across);
      if (card.type === 'vertical-stack') return cards.forEach((c) => walk(c, across));
      if (card.type === 'horizontal-stack') return cards.forEach((c) => walk(c, across * cards.length));
      if (card.type === 'grid') return cards.forEach((c) => walk(c, across * Math.min(cards.length, Number(card.columns ?? 3))));
      if (card.type !== 'tile') return;
      named.push(String(card.name));
      const room = (380 - 8 * (across - 1)) / across - 74;
      if (String(card.name).length * 7.2 > room) cut.push(String(card.name));
    };
    for (const section of doc.views.find((v) => v.path === 'bridge')!.sections) section.cards.forEach((c) => walk(c, 1));
    // The view's tiles were found (an empty walk would pass anything): the figures and the bridge's own.
    expect(named.length).toBeGreaterThanOrEqual(4);
    expect(cut).toEqual([]);
  });
});
