// What a parent sees on the wall tablet: the views and their names, every child side by side first,
// rows and tiles named without the device prefix, a confirmation before anything is sent to the
// school, diagnostics apart, and dates and numbers in the dashboard's language.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboard, dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES, sendButton } from '../../../src/features/index.js';

type Node = Record<string, unknown>;
interface View {
  title: string;
  path: string;
  icon?: string;
  max_columns: number;
  sections: { cards: Node[] }[];
}

const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: [...ENTITIES, sendButton('sick', 'Zgłoś nieobecność')] };
const jan: DashboardChild = { id: 'jan', name: 'Jan', entities: ENTITIES };

function views(lang: 'pl' | 'en' = 'pl', children = [ania, jan]): View[] {
  return (parse(dashboardYaml(children, lang), { version: '1.1' }) as { views: View[] }).views;
}

/** Every object inside a value, depth first. */
function objects(value: unknown): Node[] {
  if (Array.isArray(value)) return value.flatMap(objects);
  if (value === null || typeof value !== 'object') return [];
  return [value as Node, ...Object.values(value).flatMap(objects)];
}

describe('dashboard views', () => {
  it('opens on the family, then one view per child by name, then the bridge; no tab is an icon alone', () => {
    const all = views('en');
    expect(all.map((v) => v.title)).toEqual(['Family', 'Ania', 'Jan', 'Bridge']);
    for (const v of all) expect(v.icon, v.title).toBeUndefined();
  });

  it('puts every child side by side on the family view, one column each, named after the child', () => {
    const family = views()[0]!;
    expect(family.max_columns).toBe(2);
    expect(family.sections.map((s) => s.cards[0])).toEqual([
      { type: 'heading', heading: 'Ania' },
      { type: 'heading', heading: 'Jan' },
    ]);
    const text = JSON.stringify(family);
    // Lucky number, the lesson now or next, the day's changes, homework, the week's tests, unread counts.
    for (const key of [
      'lucky_number',
      'next_lesson',
      'plan_changes_today',
      'plan_changes_tomorrow',
      'homework_due',
      'upcoming_tests',
      'unread_messages',
      'unread_notices',
    ]) {
      expect(text, key).toContain(`sensor.ania_${key}`);
      expect(text, key).toContain(`sensor.jan_${key}`);
    }
    // The day's lessons, the lesson in progress and whether the child is at school, from their own sensors.
    for (const id of [
      'sensor.ania_timetable_today',
      'sensor.ania_timetable_tomorrow',
      'sensor.ania_current_lesson',
      'binary_sensor.ania_at_school',
    ]) {
      expect(text, id).toContain(id);
      expect(text, id).toContain(id.replace('ania', 'jan'));
    }
    // A cancelled lesson is struck through, a changed one named in the bridge's words (its note), the one in progress marked.
    expect(text).toContain('<del>');
    expect(text).toContain("md(l.get('note'))");
    expect(text).toContain('▶');
  });

  it('keeps the diagnostics (last update, refresh) off the family wall, in a view of their own', () => {
    const all = views();
    const bridge = all.find((v) => v.path === 'bridge')!;
    for (const id of ['sensor.ania_last_update', 'button.ania_refresh', 'binary_sensor.jan_problem']) expect(JSON.stringify(bridge)).toContain(id);
    for (const v of all.filter((v) => v.path !== 'bridge')) {
      expect(JSON.stringify(v), v.path).not.toContain('_last_update');
      expect(JSON.stringify(v), v.path).not.toContain('_refresh');
    }
  });

  it("shows a child's details in the child's view: note, absences, books, agenda, grades, average, messages", () => {
    const text = JSON.stringify(views().find((v) => v.path === 'ania'));
    for (const id of [
      'sensor.ania_newest_note',
      'sensor.ania_absences_unexcused',
      'sensor.ania_library_due',
      'sensor.ania_upcoming_tests',
      'sensor.ania_newest_grade',
      'sensor.ania_average',
      'sensor.ania_newest_message',
    ]) {
      expect(text, id).toContain(id);
    }
    // The agenda's trips and meetings, overdue books, a note that asks for a signature.
    expect(text).toContain('set upcoming_tests = \\"sensor.ania_upcoming_tests\\"');
    expect(text).toContain("state_attr(upcoming_tests, 'other')");
    expect(text).toContain("b.get('overdue')");
    expect(text).toContain('Wymaga podpisu rodzica');
    // The school's own average beside ours, only where the two differ (live-notes 12).
    expect(text).toContain(
      "{% if s.get('school') is number and s.get('school') != s.get('average') %} <small>({{ t.schoolAverage }} {{ num(s.get('school')) }})</small>{% endif %}",
    );
    expect(text).toContain('\\"schoolAverage\\":\\"szkoła\\"');
  });

  it('names every row and tile itself, so Home Assistant does not put the device name first', () => {
    const rows = objects(dashboard([ania, jan])).filter((o) => typeof o.entity === 'string' && o.condition === undefined);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(typeof row.name, String(row.entity)).toBe('string');
  });

  it('asks before every button that writes to the portal, naming what it sends', () => {
    const buttons = objects(dashboard([ania], 'en')).filter((o) => typeof o.entity === 'string' && String(o.entity).startsWith('button.'));
    // The refresh reads the register and the weekly summary asks the bridge: neither writes to the portal.
    const writing = buttons.filter((b) => !['button.ania_refresh', 'button.dziennik2mqtt_summary_now'].includes(String(b.entity)));
    // Opening a message writes too: the portal marks it read.
    expect(writing.map((b) => b.entity).sort()).toEqual(['button.ania_mark_notices_read', 'button.ania_open_message', 'button.ania_send_sick']);
    for (const b of writing) expect(b.tap_action, String(b.entity)).toMatchObject({ action: 'toggle', confirmation: { text: expect.any(String) } });
    expect(writing.find((b) => b.entity === 'button.ania_send_sick')).toMatchObject({
      name: 'Zgłoś nieobecność',
      tap_action: { confirmation: { text: 'Send "Zgłoś nieobecność" to the school now?' } },
    });
    expect(writing.find((b) => b.entity === 'button.ania_open_message')).toMatchObject({
      tap_action: { confirmation: { text: 'Open the newest message? The register will mark it read.' } },
    });
  });

  it('writes dates with the weekday and numbers with the decimal mark of the language', () => {
    const pl = dashboardYaml([ania], 'pl');
    // The words each template reads (`t`) are set in its head, in the dashboard's language.
    expect(pl).toContain('"weekdays":["poniedziałek","wtorek"');
    expect(pl).toContain('"decimal":","');
    expect(pl).not.toContain('"Monday"');
    const en = dashboardYaml([ania], 'en');
    expect(en).toContain('"weekdays":["Monday","Tuesday"');
    expect(en).not.toContain('poniedziałek');
    expect(en).not.toContain('"decimal":","');
    // The average goes through num(), never as the raw state with its dot.
    expect(pl).toContain('set average = "sensor.ania_average"');
    expect(pl).toContain('num(states(average))');
  });

  it('says what an empty value means instead of leaving it unknown', () => {
    const text = JSON.stringify(views('pl'));
    // A day without lessons (a Sunday), after the last lesson, and the lesson in progress (current_lesson) called "now".
    expect(text).toContain('Dziś nie ma lekcji.');
    expect(text).toContain('Dziś już nie ma lekcji.');
    expect(text).toContain('{% if in_progress %}**{{ t.lessonNow }}:**');
    expect(text).toContain('\\"lessonNow\\":\\"Teraz\\"');
    // A plan change in the bridge's words, never worded from its kind code by the template.
    expect(text).toContain("md(c.get('words') or '')");
    expect(text).not.toContain('odwołana');
    expect(text).not.toMatch(/states\(\w+\)\s*\}\}\s*\|/);
  });
});
