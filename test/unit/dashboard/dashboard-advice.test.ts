// The bridge view shows the portal's advice to change the password (issue 27) while `problem` carries
// it, OFF as it stays: its template rendered by Jinja2 as Home Assistant renders it, in each language.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/ha/dashboard.js';
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
  it.each(['en', 'pl', 'uk'] as const)('shows the advice in %s while problem carries it, and nothing without it', async (lang) => {
    const cards = bridgeMarkdown(lang);
    const advice = cards.find((c) => c.includes("'password_change_advised'"));
    expect(advice, 'an advice card in the bridge view').toBeDefined();
    const words = passwordChangeAdvice(lang);
    const shown = await render(advice!, { reason: null, advice: 'password_change_advised', advice_message: words });
    expect(shown).toContain('alert-type="info"');
    const lead = { en: 'The portal advises changing the password:', pl: 'Portal zaleca zmianę hasła:', uk: 'Портал радить змінити пароль:' };
    expect(shown).toContain(lead[lang]);
    expect(shown).toContain(words);
    expect(await render(advice!, { reason: null })).toBe('');
  });

  it('has no card in the bridge view unless the portal advises it: shown only while password_change_advised is on', () => {
    const cards = bridgeCards('pl');
    // Every markdown card of the view is shown by a condition: none is an empty box while there is nothing to say.
    expect(cards.filter((c) => c.type === 'markdown')).toEqual([]);
    const advice = cards.find((c) => c.type === 'conditional' && String((c.card as Node).content).includes("'password_change_advised'"));
    expect(advice?.conditions).toEqual([{ condition: 'state', entity: 'binary_sensor.ania_password_change_advised', state: 'on' }]);
  });
});
