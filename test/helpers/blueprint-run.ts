// A notification blueprint run in each of its three languages, as Home Assistant runs it: bound to the
// inputs, triggered by a state change, a time or a template turning true, then its texts rendered
// strictly by Jinja2 (every one must render). The states and events are built by the test in the
// bridge's shapes (docs/entities.md).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  bind,
  eventEntityState,
  loadBlueprint,
  renderActionTemplates,
  runAt,
  runTemplateAt,
  runTriggerSide,
  type Blueprint,
  type HaState,
  type StateChange,
} from './blueprints.js';

const FOLDER = fileURLToPath(new URL('../../blueprints/automation/dziennik2mqtt/', import.meta.url));
const PHONE = { notify_device: '0123456789abcdef0123456789abcdef' };
export const LANGUAGES = ['pl', 'en', 'uk'] as const;
export type States = Record<string, HaState>;
/** What starts a run: a state change, a time trigger's moment, or the two moments a template trigger is rendered at. */
export type Start = StateChange | string | { before: string; at: string };
export type Outcome = Record<(typeof LANGUAGES)[number], { passed: boolean; text: string; title?: string }>;

/**
 * Each blueprint read once by run(), which only binds it (bind makes a new automation and changes nothing of it): a
 * world's events ran the YAML parser three times each, about a second of rendered.test.ts's CPU.
 */
const read = new Map<string, Blueprint>();
const blueprintOf = (file: string): Blueprint => read.get(file) ?? read.set(file, loadBlueprint(join(FOLDER, file))).get(file)!;

/** In each language: whether the automation acts, its texts (joined) and its notification's title; every text must render. */
export async function run(file: string, inputs: Record<string, unknown>, on: Start, states: States = {}): Promise<Outcome> {
  const out: Partial<Outcome> = {};
  for (const language of LANGUAGES) {
    const automation = bind(blueprintOf(file), { ...PHONE, language, ...inputs });
    const now = typeof on === 'string' ? on : 'at' in on ? on.at : undefined;
    const result =
      typeof on === 'string'
        ? await runAt(automation, on, states)
        : 'at' in on
          ? await runTemplateAt(automation, on, states)
          : await runTriggerSide(automation, on, states);
    expect(result.errors, `${file} ${language}`).toEqual([]);
    const texts = result.passed ? await renderActionTemplates(automation, result.variables ?? {}, states, now) : [];
    for (const t of texts) expect(t.result, `${file} ${language} ${t.path}`).not.toHaveProperty('error');
    const shown = (t: (typeof texts)[number]) => ('value' in t.result ? String(t.result.value) : '');
    const title = texts.find((t) => t.path.endsWith('.title'));
    out[language] = { passed: result.passed === true, text: texts.map(shown).join('\n'), ...(title ? { title: shown(title) } : {}) };
  }
  return out as Outcome;
}

/** The state change of an event entity for a payload (after an earlier event, not after a restart). */
export const fired = (entityId: string, payload: Record<string, unknown>): StateChange => {
  const to = eventEntityState(entityId, payload, '2026-11-18T08:20:00.000Z');
  return { from: { ...to, state: '2026-11-17T10:00:00.000Z' }, to };
};
export const sensor = (entity_id: string, state: string, attributes: Record<string, unknown> = {}): HaState => ({ entity_id, state, attributes });
export const statesOf = (...list: HaState[]): States => Object.fromEntries(list.map((s) => [s.entity_id, s]));
/** Inputs naming Ania's entities by their keys (each input is named as its entity's key). */
export const ania = (...keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, `${k.startsWith('school_day') ? 'binary_sensor' : 'sensor'}.ania_${k}`]));
/** The languages in which the automation acted. */
export const passedIn = (r: Outcome) => LANGUAGES.filter((l) => r[l].passed);

/** The bridge's "Weekly summary now" button pressed at `at`: its event entity's new state, naming the children asked for (none: all). */
export const summaryPressed = (at: string, children: readonly string[]): StateChange => ({
  from: { entity_id: 'event.dziennik2mqtt_summary_requested', state: '2026-11-16T10:00:00.000+00:00', attributes: {} },
  to: {
    entity_id: 'event.dziennik2mqtt_summary_requested',
    state: new Date(at).toISOString(),
    attributes: { event_type: 'summary_requested', children },
  },
});
