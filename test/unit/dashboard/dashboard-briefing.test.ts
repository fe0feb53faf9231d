// The family view shows each child's briefing line first under the name, rendered by Jinja2 as Home
// Assistant renders it: the line as the bridge wrote it (Ukrainian here), nothing before the first one.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { skipWithoutJinja, renderTemplates } from '../../helpers/blueprints.js';

const LINE = 'Завтра 8:00–12:25, 5 уроків. Контрольна: Matematyka.';

describe.skipIf(skipWithoutJinja())("the family view's briefing", () => {
  it('shows the line under the lucky banner and before the lessons, and nothing while unknown', async () => {
    const yaml = dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'uk');
    const family = (parse(yaml) as { views: { path: string; sections: { cards: { type: string; content?: string }[] }[] }[] }).views.find(
      (v) => v.path === 'family',
    )!;
    const cards = family.sections[0]!.cards;
    const index = cards.findIndex((c) => c.content?.includes('sensor.ania_briefing'));
    expect(index).toBeGreaterThan(0);
    expect(cards.findIndex((c) => c.content?.includes('sensor.ania_timetable_today'))).toBeGreaterThan(index);
    const template = cards[index]!.content!;
    const [known, unknown] = await renderTemplates([
      { template, variables: {}, states: { 'sensor.ania_briefing': { state: LINE, attributes: {} } }, strict: true },
      { template, variables: {}, states: { 'sensor.ania_briefing': { state: 'unknown', attributes: {} } }, strict: true },
    ]);
    expect(known).toEqual({ value: `**${LINE}**` });
    expect(unknown).toEqual({ value: '' });
  });
});
