// Every entity the bridge can publish for a child, declared as data. Discovery, the dashboard and the
// README tables are built from this list; the poller fills in states by key.

export type Platform = 'sensor' | 'binary_sensor' | 'button' | 'event';

export interface EntityDef {
  /** The <entity> part of topics and unique ids. */
  key: string;
  platform: Platform;
  name: string;
  icon?: string;
  deviceClass?: string;
  stateClass?: 'measurement' | 'total';
  unit?: string;
  entityCategory?: 'diagnostic' | 'config';
  /** Available whenever the bridge is, even while the child is offline (diagnostics). */
  bridgeAvailabilityOnly?: boolean;
  /** Sensors whose state carries an attributes topic. */
  attributes?: boolean;
  /** For buttons: the command topic key (<base>/<c>/<command>/set) and the payload it sends. */
  command?: { key: string; payload: string };
  /** For events: the event types it can fire. */
  eventTypes?: string[];
}

const sensor = (key: string, name: string, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'sensor',
  name,
  attributes: true,
  ...extra,
});

const binary = (key: string, name: string, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'binary_sensor',
  name,
  ...extra,
});

const event = (key: string, name: string, icon: string): EntityDef => ({
  key,
  platform: 'event',
  name,
  icon,
  eventTypes: [key],
});

/** The fixed catalogue, in the order of the interface's table. */
export const ENTITIES: readonly EntityDef[] = [
  sensor('lucky_number', 'Lucky number', { icon: 'mdi:clover' }),
  binary('lucky_today', 'Lucky today', { icon: 'mdi:clover' }),
  sensor('unread_messages', 'Unread messages', { icon: 'mdi:email-outline', stateClass: 'measurement' }),
  sensor('unread_notices', 'Unread announcements', { icon: 'mdi:bulletin-board', stateClass: 'measurement' }),
  sensor('newest_notice', 'Newest announcement', { icon: 'mdi:bulletin-board' }),
  sensor('newest_message', 'Newest message', { icon: 'mdi:email' }),
  sensor('plan_changes_today', 'Plan changes today', { icon: 'mdi:calendar-alert' }),
  sensor('plan_changes_tomorrow', 'Plan changes next school day', { icon: 'mdi:calendar-alert' }),
  sensor('newest_grade', 'Newest grade', { icon: 'mdi:school' }),
  sensor('average', 'Average', { icon: 'mdi:chart-line', stateClass: 'measurement' }),
  binary('school_day_today', 'School day today', { icon: 'mdi:school-outline' }),
  binary('school_day_tomorrow', 'School day tomorrow', { icon: 'mdi:school-outline' }),
  sensor('lessons_start_today', 'Lessons start today', { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_end_today', 'Lessons end today', { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_start_tomorrow', 'Lessons start next school day', { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_end_tomorrow', 'Lessons end next school day', { deviceClass: 'timestamp', attributes: false }),
  sensor('next_lesson', 'Next lesson', { icon: 'mdi:clock-outline' }),
  sensor('homework_due', 'Homework due', { icon: 'mdi:notebook-edit' }),
  sensor('upcoming_tests', 'Upcoming tests', { icon: 'mdi:file-document-edit' }),
  sensor('absences_unexcused', 'Unexcused absences', { icon: 'mdi:account-off', stateClass: 'measurement' }),
  sensor('newest_note', 'Newest note', { icon: 'mdi:note-text' }),
  sensor('library_due', 'Library lendings', { icon: 'mdi:book-open-variant' }),
  sensor('last_update', 'Last update', {
    deviceClass: 'timestamp',
    entityCategory: 'diagnostic',
    attributes: false,
    bridgeAvailabilityOnly: true,
  }),
  binary('problem', 'Problem', {
    deviceClass: 'problem',
    entityCategory: 'diagnostic',
    attributes: true,
    bridgeAvailabilityOnly: true,
  }),
  {
    key: 'refresh',
    platform: 'button',
    name: 'Refresh',
    icon: 'mdi:refresh',
    command: { key: 'refresh', payload: 'refresh' },
  },
  {
    key: 'mark_notices_read',
    platform: 'button',
    name: 'Mark announcements read',
    icon: 'mdi:email-open-multiple',
    command: { key: 'mark_notices_read', payload: 'all' },
  },
  event('grade', 'Grade', 'mdi:school'),
  event('message', 'Message', 'mdi:email'),
  event('notice', 'Announcement', 'mdi:bulletin-board'),
  event('plan_change', 'Plan change', 'mdi:calendar-alert'),
  event('absence', 'Absence', 'mdi:account-off'),
  event('homework', 'Homework', 'mdi:notebook-edit'),
  event('note', 'Note', 'mdi:note-text'),
];

/** The button for one configured fixed message. */
export function sendButton(messageId: string, name: string): EntityDef {
  return {
    key: `send_${messageId}`,
    platform: 'button',
    name,
    icon: 'mdi:send',
    command: { key: 'send_message', payload: messageId },
  };
}

/** The entity id Home Assistant gives: discovery sets default_entity_id to <platform>.<child>_<key>. */
export function entityId(childId: string, entity: Pick<EntityDef, 'platform' | 'key'>): string {
  return `${entity.platform}.${childId}_${entity.key}`;
}

/** The catalogue entry of a key; an unknown key is a programming error. */
export function entityByKey(key: string): EntityDef {
  const found = ENTITIES.find((e) => e.key === key);
  if (!found) throw new Error(`no entity ${key}`);
  return found;
}
