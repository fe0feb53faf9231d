// What a test of a kindergarten child reads of her device as Home Assistant does: the components of each
// discovery the bridge published (the first one first) and of the one the broker retains, and whether the
// change feed watches each child (the diagnostics' `change_feed.on`); and the check both roads make of the demo
// family's kindergarten child beside her school sister.
import { expect } from 'vitest';
import type { Harness } from './app.js';
import { retained } from './mqtt.js';

/**
 * The components a kindergarten child's account cannot fill, written out here rather than taken from the
 * features: the lists live-notes 58 says her account refuses (the timetable and its changes, attendance, every
 * kind of grade, behaviour, notes, homework and the agenda, the lessons' topics) and the lucky number a
 * kindergarten does not run. A school child has every one of them.
 */
export const FILLED_BY_SCHOOL_LISTS = [
  'lucky_number',
  'lucky_today',
  'lucky',
  'plan_changes_today',
  'plan_changes_tomorrow',
  'cancelled_lessons_week',
  'plan_change',
  'newest_grade',
  'average',
  'grade_at_risk',
  'grade',
  'forecast_changed',
  'absences_unexcused',
  'attendance',
  'absence',
  'homework_due',
  'homework_upcoming',
  'homework',
  'upcoming_tests',
  'next_test',
  'test',
  'agenda',
  'lesson_topics',
  'catch_up',
  'newest_note',
  'note',
  'behaviour',
  'behaviour_grade',
  'streaks',
  'achievement',
];

type Config = { cmps: Record<string, Record<string, unknown>> };

/** A discovery's components (a removed one is reduced to its platform: not listed). */
const listed = (config: Config): string[] => Object.keys(config.cmps).filter((k) => Object.keys(config.cmps[k]!).length > 1);

/** The child's device as discovered: every config published, the first first, and the one the broker retains now. */
export async function deviceComponents(h: Harness, child: string): Promise<{ configs: string[][]; retained: string[] }> {
  const topic = `${h.prefix}/device/${h.base}_${child}/config`;
  const configs = h.rec.on(topic).flatMap((m) => (m.text === '' ? [] : [listed(JSON.parse(m.text) as Config)]));
  const kept = (await retained([topic])).get(topic);
  return { configs, retained: kept === undefined ? [] : listed(JSON.parse(kept) as Config) };
}

/** Whether the change feed watches each child, by id, as the diagnostics say. */
export async function changeFeedWatching(h: Harness): Promise<Record<string, boolean | undefined>> {
  const bundle = JSON.parse(await h.app.diagnostics()) as { children: { id: string; change_feed: { on: boolean } | null }[] };
  return Object.fromEntries(bundle.children.map((c) => [c.id, c.change_feed?.on]));
}

/**
 * Zofia's device (the kindergarten child) holds nothing a school list would fill, from her first discovery to the
 * config the broker retains, and her first lists `fills`; her sister Ania's (a pupil) every such component.
 */
export async function expectOnlyWhatSheFills(h: Harness, fills: readonly string[]): Promise<void> {
  const zofia = await deviceComponents(h, 'zofia');
  expect(zofia.configs.length).toBeGreaterThan(0);
  for (const config of [...zofia.configs, zofia.retained])
    expect(config.filter((k) => FILLED_BY_SCHOOL_LISTS.includes(k) || /grade|average|homework|lucky/.test(k))).toEqual([]);
  expect(zofia.configs[0]).toEqual(expect.arrayContaining([...fills]));
  const ania = await deviceComponents(h, 'ania');
  expect(ania.configs[0]).toEqual(expect.arrayContaining([...FILLED_BY_SCHOOL_LISTS, 'average_matematyka']));
  expect(ania.retained).toEqual(expect.arrayContaining(FILLED_BY_SCHOOL_LISTS));
}
