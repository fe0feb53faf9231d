// Every portal resource the bridge reads, each declared once: whatever the resources' modules export
// that is a declaration, module by module (the register's rest and who the child is, the grades, the
// timetable and the calendar, the kindergarten, the lookups, the messaging host, the change feed) and by
// name within one, as docs/polling.md lists them. A test holds it to one declaration per endpoint, and to
// every request the bridge makes.
import type { Resource } from '../feature-kit/resource.js';
import * as school from './school.js';
import * as grades from './grades.js';
import * as timetable from './timetable.js';
import * as calendar from './calendar.js';
import * as kindergarten from './kindergarten.js';
import * as lookups from './lookups.js';
import * as messaging from './messaging.js';
import * as feed from './feed.js';

/** The declarations a module exports (its other exports are helpers), by name: a module's own order is not kept the same everywhere. */
function declaredIn(module: Record<string, unknown>): Resource[] {
  const declared = Object.values(module).filter((v): v is Resource => typeof v === 'object' && v !== null && 'endpoints' in v && 'fresh' in v);
  return declared.sort((a, b) => a.name.localeCompare(b.name));
}

export const RESOURCES: readonly Resource[] = [school, grades, timetable, calendar, kindergarten, lookups, messaging, feed].flatMap(declaredIn);
