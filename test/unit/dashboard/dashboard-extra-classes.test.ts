// The dashboard's today and next-day cards print an extra class from timetable_*'s `note`: at its hour, "zajęcia
// dodatkowe" beside it as the bridge says it, a cancelled one struck through; one without a number keeps the day a school's
// (it is no kindergarten's block). Rendered by Jinja2 as Home Assistant renders it.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The family view's markdown card that sets this variable to Ania's entity. */
function card(variable: string): string {
  const doc = parse(dashboardYaml([ania], 'pl'), { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
  const cards = doc.views.find((v) => v.path === 'family')!.sections.flatMap((s) => s.cards);
  return cards.find((c) => c.type === 'markdown' && (c.content as string).includes(`set ${variable} = "sensor.`))!.content as string;
}

const lesson = { teacher: 'Anna Nowak', room: '12', change: null };
const DAY = {
  state: '2',
  attributes: {
    date: '2026-11-24',
    hours: { from: '12:45', to: '14:25' },
    lessons: [
      { no: 6, from: '12:45', to: '13:30', subject: 'Religia', ...lesson, note: null },
      { no: 7, from: '13:40', to: '14:25', subject: 'Koło matematyczne', ...lesson, extra: true, note: 'zajęcia dodatkowe' },
      { no: null, from: '15:00', to: '16:30', subject: 'Szachy', ...lesson, change: 'cancelled', extra: true, note: 'zajęcia dodatkowe · odwołana' },
    ],
  },
};
const STATES = {
  'sensor.ania_timetable_today': DAY,
  'sensor.ania_timetable_tomorrow': DAY,
  'sensor.ania_next_lesson': {
    state: 'Koło matematyczne',
    attributes: {
      date: '2026-11-24',
      lesson_no: 7,
      time: '13:40',
      end: '14:25',
      start: '2026-11-24T13:40:00+01:00',
      room: '22',
      substitution: false,
      extra: true,
    },
  },
};

async function render(template: string): Promise<string> {
  const [result] = await renderTemplates([{ template, variables: {}, states: STATES, strict: true, now: '2026-11-24T12:50:00+01:00' }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return result.value as string;
}

describe.skipIf(skipWithoutJinja())('extra classes on the dashboard (python3-jinja2)', () => {
  it('lists them at their hour, named as extra classes, a cancelled one struck through; the line of the next lesson leaves it to the list; the next day too', async () => {
    const today = await render(card('timetable'));
    // (A colon is escaped for Markdown.)
    // The next lesson by its hours and room; what it is, the list below says once (as the board's headline).
    expect(today).toContain('**Następna:** Koło matematyczne, 13&#58;40–14&#58;25, sala 22\n');
    expect(today).toContain('7\\. 13&#58;40 Koło matematyczne _(zajęcia dodatkowe)_');
    expect(today).toContain('15&#58;00–16&#58;30 <del>Szachy</del> _(zajęcia dodatkowe · odwołana)_');
    expect(today).not.toContain('przedszkol');
    // The heading's span is the day's, the extra class's end included.
    expect(today).toContain('### Wtorek 24.11 · 12:45–14:25');
    // The next school day's card lists them in its line of the day.
    const next = await render(card('homework'));
    expect(next).toContain('7\\. Koło matematyczne _(zajęcia dodatkowe)_ · 15&#58;00–16&#58;30 <del>Szachy</del> _(zajęcia dodatkowe · odwołana)_');
  });
});
