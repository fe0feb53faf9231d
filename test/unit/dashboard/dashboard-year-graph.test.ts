// The school year's graph on the child's view (interface 16.3): with the statistics imported, a statistics
// graph card of the child's overall average and each subject's (not a subject graded in points, whose figure
// is a percentage), one point a day over the year; none without the statistics or for a kindergarten child.
import { describe, expect, it } from 'vitest';
import { dashboard, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { sensor } from '../../../src/features/kit/entities.js';

type Node = Record<string, unknown>;
const subject = (slug: string, name: string, unit?: string) =>
  sensor(`average_${slug}`, { en: name, pl: name, uk: name }, { icon: 'mdi:chart-line', stateClass: 'measurement', ...(unit ? { unit } : {}) });
const ania: DashboardChild = {
  id: 'ania',
  name: 'Ania',
  entities: [...ENTITIES, subject('matematyka', 'Matematyka'), subject('jezyk_polski', 'Język polski'), subject('fizyka', 'Fizyka', '%')],
};

function objects(value: unknown): Node[] {
  if (Array.isArray(value)) return value.flatMap(objects);
  if (value === null || typeof value !== 'object') return [];
  return [value as Node, ...Object.values(value).flatMap(objects)];
}
const graphs = (children: DashboardChild[], statistics: boolean, lang: 'pl' | 'en' = 'pl') =>
  objects(dashboard(children, lang, { statistics })).filter((n) => n.type === 'statistics-graph');

describe("the school year's graph", () => {
  it("graphs the child's averages of the year on its own view, under the grades", () => {
    const view = (dashboard([ania], 'pl', { statistics: true }).views as Node[]).find((v) => v.path === 'ania')!;
    const sections = view.sections as { cards: Node[] }[];
    const grades = sections.find((s) => objects(s).some((n) => n.type === 'statistics-graph'))!;
    expect(objects(grades.cards[0]).some((n) => n.heading === 'Oceny')).toBe(true);
    expect(graphs([ania], true)).toEqual([
      {
        type: 'statistics-graph',
        title: 'Średnie w roku szkolnym',
        entities: ['dziennik2mqtt:ania_average', 'dziennik2mqtt:ania_average_matematyka', 'dziennik2mqtt:ania_average_jezyk_polski'],
        period: 'day',
        stat_types: ['mean'],
        chart_type: 'line',
        days_to_show: 365,
        grid_options: { columns: 'full' },
      },
    ]);
    expect(graphs([ania], true, 'en')[0]?.title).toBe('Averages over the school year');
  });

  it('has none without the statistics, for a child without subject averages, or for a kindergarten child', () => {
    expect(graphs([ania], false)).toEqual([]);
    expect(graphs([{ id: 'jan', name: 'Jan', entities: ENTITIES }], true)).toEqual([]);
    expect(graphs([{ ...ania, kind: 'kindergarten' }], true)).toEqual([]);
  });
});
