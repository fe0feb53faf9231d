// Every entity the bridge can publish for a child, declared as data. Discovery, the dashboard and the
// README tables are built from this list; the poller fills in states by key.
import type { Language, Texts } from '../i18n/language.js';

export type Platform = 'sensor' | 'binary_sensor' | 'button' | 'event';

export interface EntityDef {
  /** The <entity> part of topics and unique ids. */
  key: string;
  platform: Platform;
  /** What Home Assistant shows, in the configured language (the entity id stays English). */
  name: Texts;
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

const sensor = (key: string, name: Texts, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'sensor',
  name,
  attributes: true,
  ...extra,
});

const binary = (key: string, name: Texts, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'binary_sensor',
  name,
  ...extra,
});

const event = (key: string, name: Texts, icon: string): EntityDef => ({
  key,
  platform: 'event',
  name,
  icon,
  eventTypes: [key],
});

/** The fixed catalogue, in the order of the interface's table. */
export const ENTITIES: readonly EntityDef[] = [
  sensor('lucky_number', { en: 'Lucky number', pl: 'Szczęśliwy numerek' }, { icon: 'mdi:clover' }),
  binary('lucky_today', { en: 'Lucky today', pl: 'Ma szczęśliwy numerek' }, { icon: 'mdi:clover' }),
  sensor('unread_messages', { en: 'Unread messages', pl: 'Nieprzeczytane wiadomości' }, { icon: 'mdi:email-outline', stateClass: 'measurement' }),
  sensor('unread_notices', { en: 'Unread announcements', pl: 'Nieprzeczytane ogłoszenia' }, { icon: 'mdi:bulletin-board', stateClass: 'measurement' }),
  sensor('newest_notice', { en: 'Newest announcement', pl: 'Najnowsze ogłoszenie' }, { icon: 'mdi:bulletin-board' }),
  sensor('newest_message', { en: 'Newest message', pl: 'Najnowsza wiadomość' }, { icon: 'mdi:email' }),
  sensor('plan_changes_today', { en: 'Plan changes today', pl: 'Zmiany w planie dziś' }, { icon: 'mdi:calendar-alert', stateClass: 'measurement' }),
  sensor('plan_changes_tomorrow', { en: 'Plan changes next school day', pl: 'Zmiany w planie w następnym dniu nauki' }, { icon: 'mdi:calendar-alert', stateClass: 'measurement' }),
  sensor('newest_grade', { en: 'Newest grade', pl: 'Najnowsza ocena' }, { icon: 'mdi:school' }),
  sensor('average', { en: 'Average', pl: 'Średnia' }, { icon: 'mdi:chart-line', stateClass: 'measurement' }),
  binary('school_day_today', { en: 'School day today', pl: 'Dziś dzień nauki' }, { icon: 'mdi:school-outline' }),
  binary('school_day_tomorrow', { en: 'School day tomorrow', pl: 'Jutro dzień nauki' }, { icon: 'mdi:school-outline' }),
  sensor('lessons_start_today', { en: 'Lessons start today', pl: 'Początek lekcji dziś' }, { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_end_today', { en: 'Lessons end today', pl: 'Koniec lekcji dziś' }, { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_start_tomorrow', { en: 'Lessons start next school day', pl: 'Początek lekcji w następnym dniu nauki' }, { deviceClass: 'timestamp', attributes: false }),
  sensor('lessons_end_tomorrow', { en: 'Lessons end next school day', pl: 'Koniec lekcji w następnym dniu nauki' }, { deviceClass: 'timestamp', attributes: false }),
  sensor('next_lesson', { en: 'Next lesson', pl: 'Następna lekcja' }, { icon: 'mdi:clock-outline' }),
  sensor('homework_due', { en: 'Homework due', pl: 'Zadania domowe do oddania' }, { icon: 'mdi:notebook-edit', stateClass: 'measurement' }),
  sensor('upcoming_tests', { en: 'Upcoming tests', pl: 'Najbliższe sprawdziany' }, { icon: 'mdi:file-document-edit', stateClass: 'measurement' }),
  sensor('absences_unexcused', { en: 'Unexcused absences', pl: 'Nieusprawiedliwione nieobecności' }, { icon: 'mdi:account-off', stateClass: 'measurement' }),
  sensor('newest_note', { en: 'Newest note', pl: 'Najnowsza uwaga' }, { icon: 'mdi:note-text' }),
  sensor('library_due', { en: 'Library lendings', pl: 'Wypożyczenia z biblioteki' }, { icon: 'mdi:book-open-variant', stateClass: 'measurement' }),
  sensor('last_update', { en: 'Last update', pl: 'Ostatnia aktualizacja' }, {
    deviceClass: 'timestamp',
    entityCategory: 'diagnostic',
    attributes: false,
    bridgeAvailabilityOnly: true,
  }),
  binary('problem', { en: 'Problem', pl: 'Problem' }, {
    deviceClass: 'problem',
    entityCategory: 'diagnostic',
    attributes: true,
    bridgeAvailabilityOnly: true,
  }),
  {
    key: 'refresh',
    platform: 'button',
    name: { en: 'Refresh', pl: 'Odśwież' },
    icon: 'mdi:refresh',
    command: { key: 'refresh', payload: 'refresh' },
  },
  {
    key: 'mark_notices_read',
    platform: 'button',
    name: { en: 'Mark announcements read', pl: 'Oznacz ogłoszenia jako przeczytane' },
    icon: 'mdi:email-open-multiple',
    command: { key: 'mark_notices_read', payload: 'all' },
  },
  event('grade', { en: 'Grade', pl: 'Ocena' }, 'mdi:school'),
  event('message', { en: 'Message', pl: 'Wiadomość' }, 'mdi:email'),
  event('notice', { en: 'Announcement', pl: 'Ogłoszenie' }, 'mdi:bulletin-board'),
  event('plan_change', { en: 'Plan change', pl: 'Zmiana w planie' }, 'mdi:calendar-alert'),
  event('absence', { en: 'Absence', pl: 'Nieobecność' }, 'mdi:account-off'),
  event('homework', { en: 'Homework', pl: 'Zadanie domowe' }, 'mdi:notebook-edit'),
  event('note', { en: 'Note', pl: 'Uwaga' }, 'mdi:note-text'),
];

/** The button for one configured fixed message: its name is the user's own, whatever the language. */
export function sendButton(messageId: string, name: string): EntityDef {
  return {
    key: `send_${messageId}`,
    platform: 'button',
    name: { en: name, pl: name },
    icon: 'mdi:send',
    command: { key: 'send_message', payload: messageId },
  };
}

/** The name Home Assistant shows for an entity in a language. */
export function entityName(entity: Pick<EntityDef, 'name'>, language: Language): string {
  return entity.name[language];
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
