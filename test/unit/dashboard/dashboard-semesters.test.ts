// The averages card through the second semester, rendered by Jinja2 as Home Assistant renders it: the
// first semester's averages and the semester grades stay readable while the new semester has no grade yet;
// the forecasts, the report card's and a grade's teacher and comment (a text grade whole) printed as the grades feature publishes them.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
type Lang = 'pl' | 'en' | 'uk';
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The markdown card of Ania's view holding the averages. */
function averagesCard(lang: Lang): string {
  const doc = parse(dashboardYaml([ania], lang), { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
  const cards = doc.views
    .find((v) => v.path === 'ania')!
    .sections.flatMap((s) => s.cards)
    .flatMap((c) => (c.type === 'vertical-stack' ? (c.cards as Node[]) : [c]))
    .map((c) => (c.type === 'conditional' ? (c.card as Node) : c));
  return cards.find((c) => c.type === 'markdown' && (c.content as string).includes('set average = "sensor.'))!.content as string;
}

/** A text grade: the teacher's words are the grade. */
const TEXT_GRADE = 'Prace plastyczne staranne i pomysłowe, chętnie pokazuje je klasie';

// The first week of February: a 6 in maths this semester, nothing yet in Polish; the half-year's results as the grades feature publishes them.
const FEBRUARY = {
  'sensor.ania_newest_grade': {
    state: '6',
    attributes: {
      recent: [
        { grade: '6', subject: 'Matematyka', date: '2026-02-03', comment: 'Zadanie z gwiazdką: *brawo*' },
        { grade: '5', kind: 'grade', subject: 'Język polski', date: '2026-02-02', teacher: 'Ewa Szymańska', comment: null },
        { grade: TEXT_GRADE, kind: 'text', subject: 'Plastyka', date: '2026-02-02', teacher: 'Anna Wiśniewska', comment: null },
      ],
    },
  },
  'sensor.ania_average': {
    state: '6.00',
    attributes: {
      semester: 2,
      previous_semester: { semester: 1, average: 3.46, count: 4 },
      subjects: [
        { subject: 'Język polski', average: null, count: 0, semester_grade: '3', previous_semester: { semester: 1, average: 2.67, count: 2 } },
        {
          subject: 'Matematyka',
          average: 6,
          count: 1,
          semester_grade: '4+',
          previous_semester: { semester: 1, average: 4.25, count: 2 },
          forecast: '6',
          trend: 'up',
          to_next: { reason: 'top' },
        },
      ],
      forecast_average: 6,
      honours: true,
    },
  },
};

async function rendered(lang: Lang): Promise<string> {
  const [result] = await renderTemplates([{ template: averagesCard(lang), variables: {}, states: FEBRUARY, strict: true }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return result.value as string;
}

describe.skipIf(skipWithoutJinja())('the averages card in the second semester', () => {
  it("shows the first semester's averages and the semester grades (a + escaped as portal text), a subject with no grade yet among them", async () => {
    const pl = await rendered('pl');
    expect(pl).toContain('#### Średnia: 6,00 <small>(I semestr: 3,46)</small>');
    expect(pl).toContain('| Język polski<br><small>I semestr: **2,67** · śródroczna: **3**</small> | – | – | 0 |');
    // The forecast as published, with its trend's arrow; the report card's forecast, and honours in sight.
    expect(pl).toContain('| Matematyka<br><small>I semestr: **4,25** · śródroczna: **4&#43;**</small> | 6,00 | **6** ↑ | 1 |');
    expect(pl).toContain('prognoza na świadectwie: **6,00** · 🎓 świadectwo z wyróżnieniem w zasięgu');
    // The teacher's comment under its grade, escaped as portal text.
    expect(pl).toContain(
      '- **6** Matematyka <small>wt. 03.02</small><br><small><i>Zadanie z gwiazdk&#261;&#58; &#42;brawo&#42;</i></small>'.replace('&#261;', 'ą'),
    );
    // Each grade with its teacher beside its day; a text grade in its words, whole.
    expect(pl).toContain('- **5** Język polski <small>Ewa Szymańska · pon. 02.02</small>');
    expect(pl).toContain(`- **${TEXT_GRADE}** Plastyka <small>Anna Wiśniewska · pon. 02.02</small>`);
    const en = await rendered('en');
    expect(en).toContain('| Język polski<br><small>1st semester: **2.67** · semester: **3**</small> | – | – | 0 |');
    expect(en).toContain('| Subject | Average | Forecast | Grades |');
    expect(await rendered('uk')).toContain('I семестр: **2,67**');
  });
});
