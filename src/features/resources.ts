// Every portal resource the bridge reads, each declared once: those more than one part of the bridge reads
// in src/engine/resources/, those one feature alone reads in its folder (src/features/<name>/resources.ts, or
// kindergarten-resources.ts beside it for the timetable's kindergarten plan).
// Listed module by module (the register's rest and who the child is, the grades, the timetable and the
// calendar, the kindergarten, the lookups, the messaging host, the change feed) and by name within one, as
// docs/polling.md lists them. A test holds it to one declaration per endpoint, and to every request the
// bridge makes.
import type { Resource } from '../engine/resource.js';
import * as school from '../engine/resources/school.js';
import * as identity from '../engine/resources/identity.js';
import * as grades from '../engine/resources/grades.js';
import * as timetable from '../engine/resources/timetable.js';
import * as calendar from '../engine/resources/calendar.js';
import * as kindergarten from '../engine/resources/kindergarten.js';
import * as lookups from '../engine/resources/lookups.js';
import * as messaging from '../engine/resources/messaging.js';
import * as changeFeed from '../engine/resources/change-feed.js';
import * as notes from './notes/resources.js';
import * as attendance from './attendance/resources.js';
import * as agenda from './agenda/resources.js';
import * as library from './library/resources.js';
import * as schoolFiles from './school-files/resources.js';
import * as lessonsHeld from './lessons-held/resources.js';
import * as lucky from './lucky/resources.js';
import * as timetableFeature from './timetable/resources.js';
import * as kindergartenPlan from './timetable/kindergarten-resources.js';
import * as messageWrite from './message-write/resources.js';
import * as messagesFeature from './messages/resources.js';
import { plCompare } from '../rules/order.js';

/** The declarations some modules export (their other exports are helpers), by name: a module's own order is not kept the same everywhere. */
function declaredIn(...modules: Record<string, unknown>[]): Resource[] {
  const declared = modules
    .flatMap((m) => Object.values(m))
    .filter((v): v is Resource => typeof v === 'object' && v !== null && 'endpoints' in v && 'fresh' in v);
  return declared.sort((a, b) => plCompare(a.name, b.name));
}

/** Who the child is and the rest of the register: src/engine/resources/identity.ts, school.ts and the features' own beside it. */
const SCHOOL = [identity, school, notes, attendance, agenda, library, schoolFiles, lessonsHeld, lucky];

export const RESOURCES: readonly Resource[] = [
  SCHOOL,
  [grades],
  [timetable, timetableFeature],
  [calendar],
  [kindergarten, kindergartenPlan],
  [lookups],
  [messaging, messageWrite, messagesFeature],
  [changeFeed],
].flatMap((modules) => declaredIn(...modules));
