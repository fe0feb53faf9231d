// Every portal resource the bridge reads, each declared once: docs/polling.md's table is made from
// this list, and a test holds it to one declaration per endpoint and to every request the bridge makes.
import type { Resource } from '../feature-kit/resource.js';
import * as grades from './grades.js';
import * as timetable from './timetable.js';
import * as calendar from './calendar.js';
import * as school from './school.js';
import * as lookups from './lookups.js';
import * as messaging from './messaging.js';

function declared(module: Record<string, unknown>): Resource[] {
  return Object.values(module).filter((value): value is Resource => typeof value === 'object' && value !== null && 'endpoints' in value && 'fresh' in value);
}

/** In the order docs/polling.md lists them: who the child is, the news, the rest, the lookups, the messaging host. */
export const RESOURCES: readonly Resource[] = [
  school.IDENTITY,
  ...declared(grades).filter((r) => r.missAgeMs === undefined),
  ...declared(timetable),
  ...declared(calendar),
  ...declared(school).filter((r) => r !== school.IDENTITY && r.missAgeMs === undefined),
  ...[grades, school, lookups].flatMap(declared).filter((r) => r.missAgeMs !== undefined),
  ...declared(messaging),
];
