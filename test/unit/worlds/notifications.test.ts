// What a blueprint sends for a generated world's events (interface 18.1): each grade event the news of a world fired,
// as Home Assistant's MQTT event entity holds it, run through new_grade.yaml in pl, en and uk (Jinja2, as Home Assistant
// renders it; test/helpers/blueprint-run.ts). The notification names the grade and its subject, and a term grade or a
// proposal by its kind, never as a new grade, as the grades' typed value says. A planted fault (the event's `period`
// dropped on its way to the blueprint) shows the property failing.
//
// Budget: Jinja2 renders each event three times; 40 worlds (about 10 s of CPU, Python's included) are this door's share,
// the other doors' 300 worlds run in worlds.test.ts. Slower than 20 s: every world is two real passes (10 s a world
// allowed, for a machine whose cores are shared many times over).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fired, run } from '../../helpers/blueprint-run.js';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { Worlds, SEED } from '../../helpers/worlds/suite.js';
import { worldArb, type World } from '../../helpers/worlds/world.js';
import type { GradesAsk } from '../../../src/features/grades/ask.js';
import type { BusEvent } from '../../../src/bus/bus.js';

const RUNS = process.env.WORLDS_RUNS === undefined ? 40 : Math.ceil(Number(process.env.WORLDS_RUNS) / 8);
const NEW_GRADE = { pl: 'Nowa ocena', en: 'New grade', uk: 'Нова оцінка' } as const;

const worlds = new Worlds();
beforeAll(() => worlds.start());
afterAll(() => worlds.stop());

/** What new_grade.yaml sends for each grade event of a world that the grades' typed value tells otherwise. */
async function untold(world: World, payloadOf: (event: BusEvent) => Record<string, unknown> = (e) => e.payload): Promise<string[]> {
  const found: string[] = [];
  const doors = await worlds.doors(world);
  for (const c of doors.children) {
    const items = (c.facts.get('grades') as GradesAsk | undefined)?.items ?? [];
    for (const event of c.run.events.filter((e) => e.kind === 'grade')) {
      const item = items.find((i) => i.key === event.payload.id);
      if (item === undefined || item.shown === null) continue;
      const entity = `event.${c.run.id}_grade`;
      const sent = await run('new_grade.yaml', { grade_event: entity }, fired(entity, { event_type: 'grade', ...payloadOf(event) }));
      for (const [language, told] of Object.entries(sent)) {
        if (!told.passed) found.push(`${c.run.id} ${language}: nothing sent for ${item.key}`);
        else if (!told.text.includes(item.shown) || (item.subject !== null && !told.text.includes(item.subject)))
          found.push(`${c.run.id} ${language}: "${told.text}" for ${item.shown} (${item.subject})`);
        else if (item.details.period !== undefined && told.text.includes(NEW_GRADE[language as keyof typeof NEW_GRADE]))
          found.push(`${c.run.id} ${language}: "${told.text}" tells a ${String(item.details.period)} as a new grade`);
      }
    }
  }
  return found;
}

/** A failed assert's report and the error it carries (fast-check keeps the property's own as its cause). */
const report = (error: unknown): string => `${String(error)}\n${String((error as Error | undefined)?.cause ?? '')}`;

const holds = (payloadOf?: (event: BusEvent) => Record<string, unknown>) =>
  fc.asyncProperty(worldArb, async (world) => {
    const found = await untold(world, payloadOf);
    if (found.length > 0) throw new Error(found.join('\n'));
  });

describe.skipIf(skipWithoutJinja())(`what new_grade sends in ${RUNS} generated worlds`, () => {
  it(
    'names each grade and its subject, a term grade or a proposal by its kind',
    () => fc.assert(holds(), { numRuns: RUNS, seed: SEED }),
    RUNS * 10_000,
  );

  it(
    'fails on a planted fault: a proposal whose period is lost on its way',
    async () => {
      const dropped = (event: BusEvent) => ({ ...event.payload, period: undefined });
      const failed = await fc.assert(holds(dropped), { numRuns: RUNS, seed: SEED, endOnFailure: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(report(failed)).toMatch(/tells a \w+ as a new grade/);
      const replay = /seed: (-?\d+), path: "([\d:]+)"/.exec(report(failed));
      expect(replay).not.toBeNull();
      // The printed seed and path alone replay it.
      const again = await fc.assert(holds(dropped), { seed: Number(replay?.[1]), path: replay?.[2], endOnFailure: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(report(again)).toMatch(/tells a \w+ as a new grade/);
    },
    RUNS * 10_000,
  );
});
