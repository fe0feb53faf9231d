// The school year's graphs on the child's view (interface 16.3, 17.2): with the statistics imported, a
// statistics graph card of the child's overall average and each subject's (not a subject graded in points,
// whose figure is a percentage) first in the grades, and one of the attendance (%) first in the notes and
// absences, one point a day over the year, each shown while its sensor has a figure; none without the
// statistics, no averages for a child without subject averages or for a kindergarten child.
import { describe, expect, it } from 'vitest';
import { dashboard, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { sensor } from '../../../src/features/kit/entities.js';
import { attendanceShare } from '../../../src/features/attendance/attendance.js';

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
const graphOf = (title: string, entities: string[]) => ({
  type: 'statistics-graph',
  title,
  entities,
  period: 'day',
  stat_types: ['mean'],
  chart_type: 'line',
  days_to_show: 365,
  grid_options: { columns: 'full' },
});

describe("the school year's graphs", () => {
  it("graph the child's averages and attendance of the year on its own view", () => {
    expect(graphs([ania], true)).toEqual([
      graphOf('Średnie w roku szkolnym', [
        'dziennik2mqtt:ania_average',
        'dziennik2mqtt:ania_average_matematyka',
        'dziennik2mqtt:ania_average_jezyk_polski',
      ]),
      graphOf('Frekwencja w roku szkolnym', ['dziennik2mqtt:ania_attendance']),
    ]);
    expect(graphs([ania], true, 'en').map((g) => g.title)).toEqual(['Averages over the school year', 'Attendance over the school year']);
  });

  it('puts each first in its section, the width of the view, shown while its sensor has a figure', () => {
    const view = (dashboard([ania], 'pl', { statistics: true }).views as Node[]).find((v) => v.path === 'ania')!;
    const sections = view.sections as { cards: Node[] }[];
    const first = (heading: string) => sections.find((s) => objects(s.cards[0]).some((n) => n.heading === heading))?.cards[1];
    expect(first('Oceny')).toMatchObject({
      type: 'conditional',
      conditions: [
        { condition: 'state', entity: 'sensor.ania_average', state_not: 'unknown' },
        { condition: 'state', entity: 'sensor.ania_average', state_not: 'unavailable' },
      ],
      card: { type: 'statistics-graph', title: 'Średnie w roku szkolnym' },
      grid_options: { columns: 'full' },
    });
    expect(first('Uwagi i frekwencja')).toMatchObject({
      type: 'conditional',
      conditions: [
        expect.objectContaining({ entity: 'sensor.ania_attendance', state_not: 'unknown' }),
        expect.objectContaining({ state_not: 'unavailable' }),
      ],
      card: { type: 'statistics-graph', title: 'Frekwencja w roku szkolnym' },
    });
  });

  it('has none without the statistics; no averages for a child without subject averages or for a kindergarten child', () => {
    expect(graphs([ania], false)).toEqual([]);
    const attendance = [graphOf('Frekwencja w roku szkolnym', ['dziennik2mqtt:jan_attendance'])];
    expect(graphs([{ id: 'jan', name: 'Jan', entities: ENTITIES }], true)).toEqual(attendance);
    expect(graphs([{ id: 'jan', name: 'Jan', entities: ENTITIES, kind: 'kindergarten' }], true)).toEqual(attendance);
    expect(graphs([{ id: 'jan', name: 'Jan', entities: ENTITIES.filter((e) => e !== attendanceShare), kind: 'kindergarten' }], true)).toEqual([]);
  });
});
