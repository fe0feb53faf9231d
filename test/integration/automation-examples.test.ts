// Every hand-written automation of docs/automations.md that a child's event entity triggers, run as Home
// Assistant would (its state trigger, its template conditions, its actions' templates, rendered by Jinja2)
// against the events the real bridge publishes: the event it is written for notifies, with every template
// rendering; the same entity's other event types (a corrected grade, a cancelled test) and the entity
// coming back from `unavailable` do not.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_ACCOUNTS, SimLife } from '../../src/simulator/index.js';
import { ENTITIES } from '../../src/features/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { eventEntityState, renderActionTemplates, runTriggerSide, skipWithoutJinja, type HaState } from '../helpers/blueprints.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const AT = '2026-11-18T09:20:00+00:00';
const BEFORE = '2026-11-18T08:00:00+00:00';

interface Automation extends Record<string, unknown> {
  alias: string;
  triggers: { trigger: string; entity_id: string | string[] }[];
}

/** The automations of the page's YAML blocks whose state trigger is a child's event entity. */
async function examples(): Promise<{ automation: Automation; entity: string }[]> {
  const page = await readFile(new URL('../../docs/automations.md', import.meta.url), 'utf8');
  const found: { automation: Automation; entity: string }[] = [];
  for (const [, block] of page.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const doc = parse(block!) as { automation?: Automation[] } | null;
    for (const automation of doc?.automation ?? []) {
      const entity = automation.triggers
        .flatMap((t) => (t.trigger === 'state' ? [t.entity_id].flat() : []))
        .find((id) => id.startsWith('event.ania_'));
      if (entity !== undefined) found.push({ automation, entity });
    }
  }
  return found;
}

describe.skipIf(skipWithoutJinja())("docs/automations.md's examples", () => {
  it('notify for the event they are written for, and never for another event type or a reconnect', async () => {
    // The bridge's own events: a grade and a message the simulated school adds, as in the demo.
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], demo: true });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    const life = new SimLife({ simulator: school.sim, logins: [ANIA.login], clock: school.clock, firstAfterMs: 60_000, everyMs: 60 * 60_000 });
    life.start();
    const fired = (kind: string): Record<string, unknown> | undefined => {
      const last = h.rec.on(`${h.base}/ania/event/${kind}`).at(-1);
      return last === undefined ? undefined : (JSON.parse(last.text) as Record<string, unknown>);
    };
    await h.advanceUntil(() => fired('grade') !== undefined && fired('message') !== undefined, 'a grade and a message', 10);
    life.stop();
    // Events no demo round brings, in the bridge's shapes (features/agenda/agenda.ts): a test and a trip.
    const payloads: Record<string, Record<string, unknown>> = {
      grade: fired('grade')!,
      message: fired('message')!,
      test: {
        event_type: 'test',
        kind: 'test',
        subject: 'Matematyka',
        date: '2026-11-20',
        time: '08:00',
        description: 'Ułamki',
        teacher: 'Piotr Wiśniewski',
      },
      agenda: { event_type: 'agenda', kind: 'trip', date: '2026-11-27', time: null, description: 'Wycieczka do muzeum', subject: null },
    };

    const all = await examples();
    expect(all.map((e) => e.entity).sort()).toEqual(['event.ania_agenda', 'event.ania_grade', 'event.ania_message', 'event.ania_test']);
    for (const { automation, entity } of all) {
      const key = entity.slice('event.ania_'.length);
      const payload = payloads[key]!;
      const types = ENTITIES.find((e) => e.key === key)?.eventTypes ?? [key];
      const before: HaState = eventEntityState(entity, { ...payload, event_type: key }, BEFORE);
      // The event it is written for: it triggers, passes, and every template renders (strictly).
      const run = await runTriggerSide(automation, { from: before, to: eventEntityState(entity, payload, AT) });
      expect(run.errors, automation.alias).toEqual([]);
      expect(run.passed, `${automation.alias}: ${String(payload.event_type)}`).toBe(true);
      for (const { path, result } of await renderActionTemplates(automation, run.variables!))
        expect(result, `${automation.alias} ${path}`).not.toHaveProperty('error');
      // The other event types of the same entity: nothing.
      for (const other of types.filter((t) => t !== key)) {
        const wrong = await runTriggerSide(automation, { from: before, to: eventEntityState(entity, { ...payload, event_type: other }, AT) });
        expect(wrong.triggered === true && wrong.passed === true, `${automation.alias} notified for ${other}`).toBe(false);
      }
      // Back from unavailable (Home Assistant or the bridge restarted), and going unavailable: nothing.
      const unavailable: HaState = { entity_id: entity, state: 'unavailable', attributes: {} };
      const back = await runTriggerSide(automation, { from: unavailable, to: before });
      expect(back.triggered === true && back.passed === true, `${automation.alias} notified on a reconnect`).toBe(false);
      const gone = await runTriggerSide(automation, { from: before, to: unavailable });
      expect(gone.triggered === true && gone.passed === true, `${automation.alias} notified going unavailable`).toBe(false);
    }
  }, 60_000);
});
