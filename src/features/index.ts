// The list of features. The entity catalogue, discovery, the dashboard's entities and the command
// router's registrations are all derived from it; adding a feature means adding it here.
import { lucky } from './lucky/lucky.js';
import { messages } from './messages/messages.js';
import { notices } from './notices/notices.js';
import { timetable } from './timetable/timetable.js';
import { grades } from './grades/grades.js';
import { attendance } from './attendance/attendance.js';
import { agenda } from './agenda/agenda.js';
import { notes } from './notes/notes.js';
import { behaviourFeature } from './behaviour/behaviour.js';
import { schoolFilesFeature } from './school-files/school-files.js';
import { sentMessageFeature } from './sent-message/sent-message.js';
import { library } from './library/library.js';
import { lessonsHeldFeature } from './lessons-held/lessons-held.js';
import { status } from './status/status.js';
import { fixedMessages } from './fixed-messages/fixed-messages.js';
import { calendarFeeds } from './calendar-feeds/calendar-feeds.js';
import { briefingFeature } from './briefing/briefing.js';
import { openedMessage } from './opened-message/opened-message.js';
import { messageWrite } from './message-write/message-write.js';
import { schoolYear } from './school-year/school-year.js';
import { cancelledLessons } from './cancelled-lessons/cancelled-lessons.js';
import { streaksFeature } from './streaks/streaks.js';
import type { Feature } from './feature.js';
import type { EntityDef } from './kit/entities.js';
import type { AccountConfig } from '../config/schema.js';
import type { RolloverKinds } from '../once/rollover.js';

export { sendButton } from './fixed-messages/buttons.js';

/** Every feature, in the order their passes run when their inputs allow it. */
export const FEATURES: readonly Feature[] = [
  lucky,
  messages,
  notices,
  timetable,
  cancelledLessons,
  grades,
  attendance,
  agenda,
  lessonsHeldFeature,
  notes,
  behaviourFeature,
  streaksFeature,
  library,
  schoolFilesFeature,
  calendarFeeds,
  briefingFeature,
  status,
  fixedMessages,
  openedMessage,
  messageWrite,
  sentMessageFeature,
  schoolYear,
];

/**
 * Where a platform's entities come in the catalogue: a child's sensors first, then its diagnostics,
 * buttons (and the other controls) and events (the order of the interface's table).
 */
const PLATFORM_RANK: Partial<Record<EntityDef['platform'], number>> = { button: 2, notify: 2, select: 2, text: 2, event: 3 };
const rank = (e: EntityDef): number => PLATFORM_RANK[e.platform] ?? (e.entityCategory === 'diagnostic' ? 1 : 0);

/** Every fixed entity the bridge can publish for a child. */
export const ENTITIES: readonly EntityDef[] = FEATURES.flatMap((f) => f.entities)
  .map((e, i) => ({ e, i }))
  .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
  .map(({ e }) => e);

/**
 * What a new school year resets, from the events that declare it (`rollover:`): the kinds whose ended year leaves
 * their lists, those the new year brings in bulk, and the one event that tells it. The runner hands it to each
 * child's event gate (once/gate.ts), which names no feature.
 */
export const ROLLOVER_KINDS: RolloverKinds = rolloverKinds(ENTITIES);

function rolloverKinds(entities: readonly EntityDef[]): RolloverKinds {
  const left: Record<string, string> = {};
  const arrived: Record<string, string> = {};
  const summaries: string[] = [];
  for (const { key, rollover } of entities) {
    if (rollover === undefined) continue;
    if ('left' in rollover) left[key] = rollover.left;
    else if ('arrived' in rollover) arrived[key] = rollover.arrived;
    else summaries.push(key);
  }
  const [summary] = summaries;
  if (summary === undefined || summaries.length > 1) throw new Error(`one event tells a new school year, not ${summaries.length}`);
  return { left, arrived, summary };
}

/** What a child of this account announces: the catalogue, then the account's configured buttons. */
export function accountEntities(account: AccountConfig, features: readonly Feature[] = FEATURES): EntityDef[] {
  const fixed = ENTITIES.filter((e) => features.some((f) => f.entities.includes(e)));
  return [...fixed, ...features.flatMap((f) => f.configured?.(account) ?? [])];
}

/** The command keys the features handle, each with the feature that handles it. */
export function commandOwners(features: readonly Feature[] = FEATURES): Map<string, Feature> {
  const owners = new Map<string, Feature>();
  for (const f of features) {
    for (const key of Object.keys(f.commands ?? {})) {
      if (owners.has(key)) throw new Error(`command "${key}" is declared by two features`);
      owners.set(key, f);
    }
  }
  return owners;
}

/**
 * The features in the order their passes run: each after the features it names as inputs, otherwise
 * in list order. A missing or circular input is a programming error.
 */
export function runOrder(features: readonly Feature[] = FEATURES): Feature[] {
  const byName = new Map(features.map((f) => [f.name, f]));
  const done = new Set<string>();
  const order: Feature[] = [];
  const visit = (f: Feature, path: readonly string[]): void => {
    if (done.has(f.name)) return;
    if (path.includes(f.name)) throw new Error(`features ${[...path, f.name].join(' -> ')} depend on each other`);
    for (const input of f.inputs ?? []) {
      const needed = byName.get(input);
      if (!needed) throw new Error(`feature ${f.name} needs ${input}, which is not in the list`);
      visit(needed, [...path, f.name]);
    }
    done.add(f.name);
    order.push(f);
  };
  for (const f of features) visit(f, []);
  return order;
}
