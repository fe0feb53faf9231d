// The bench's Home Assistant (issue 82): two children for two school days with Home Assistant's API on,
// against the model of its REST API (home-assistant.ts), the school adding homework each afternoon; the
// calls to Home Assistant per day counted, and the portal's requests held to the same run without it.
import { benchLogin } from './accounts.js';
import { count } from './doc-figures.js';
import { simulate, type Injection } from './simulate.js';
import type { BenchTableRow } from './results.js';

const MONDAY = '2026-11-16T00:00:00+01:00';
const DAYS = 2;
const CHILDREN = 2;
/** Calls a day the keeping may take at most: the lists and calendars looked at when something changed, never at every pass. */
const CALLS_PER_DAY = 60;

/** A homework for each child each afternoon, due in two days. */
function homework(): Injection[] {
  return [0, 1].flatMap((day) =>
    [0, 1].map((child) => ({
      at: Date.parse(`2026-11-${16 + day}T15:0${child}:00+01:00`),
      request: { type: 'homework', login: benchLogin(child).login, due: `2026-11-${18 + day}` } as const,
      watch: { childIndex: child, key: 'homework_upcoming' },
      label: 'homework',
    })),
  );
}

export async function homeAssistantRuns(
  log: (text: string) => void,
): Promise<{ rows: BenchTableRow[]; figures: Record<string, string>; json: unknown }> {
  log("simulating two days of two children with Home Assistant's API on (the model of its REST API), then without it...");
  const on = await simulate({ children: CHILDREN, start: MONDAY, days: DAYS, homeAssistant: true, injections: homework(), record: false });
  const off = await simulate({ children: CHILDREN, start: MONDAY, days: DAYS, injections: homework(), record: false });
  const ha = on.homeAssistant ?? { calls: {}, total: 0, entries: 0 };
  const perDay = ha.total / DAYS;
  const portal = (run: typeof on) => run.counts.total / CHILDREN / DAYS;
  const rows: BenchTableRow[] = [
    {
      measure: `calls to Home Assistant's API per day, ${CHILDREN} children (two days, the first start making their ${CHILDREN * 4} entries and Assist's included)`,
      value: perDay.toFixed(0),
      target: `<= ${CALLS_PER_DAY}`,
      ok: perDay <= CALLS_PER_DAY && ha.entries === CHILDREN * 4 + 1,
    },
    {
      measure: "portal requests per child per day, Home Assistant's API on / off",
      value: `${portal(on).toFixed(0)} / ${portal(off).toFixed(0)}`,
      target: 'equal',
      ok: on.counts.total === off.counts.total,
    },
  ];
  return {
    rows,
    figures: { ha_calls_per_day: count(perDay), requests_ha_on: count(portal(on)) },
    json: { calls: ha.calls, entries: ha.entries, portal: { on: on.counts.byLogin, off: off.counts.byLogin } },
  };
}
