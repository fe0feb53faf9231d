// The exact discovery payloads: one child device with an entity of each kind, a removal, the bridge.
import { describe, expect, it } from 'vitest';
import { bridgeDiscovery, childDiscovery, type DiscoveryContext } from '../../../../src/outputs/mqtt/discovery.js';
import type { ChildDevice } from '../../../../src/features/kit/entities.js';
import { ENTITIES, sendButton } from '../../../../src/features/index.js';
import { entityByKey } from '../../../helpers/entities.js';

const ctx: DiscoveryContext = { baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: '1.2.3', language: 'en' };

const availability = [{ topic: 'dziennik2mqtt/bridge/state' }, { topic: 'dziennik2mqtt/ania/availability' }];

const ania: ChildDevice = {
  id: 'ania',
  name: 'Ania',
  model: 'Klasa 4b',
  school: 'Szkoła Podstawowa nr 5',
  entities: [
    entityByKey('lucky_number'),
    entityByKey('average'),
    entityByKey('lessons_start_today'),
    entityByKey('problem'),
    entityByKey('refresh'),
    sendButton('sick', 'Zgłoś nieobecność'),
    entityByKey('grade'),
  ],
};

describe('childDiscovery', () => {
  it('builds one device config with a component per entity', () => {
    expect(childDiscovery(ania, ctx)).toEqual({
      topic: 'homeassistant/device/dziennik2mqtt_ania/config',
      payload: {
        dev: {
          identifiers: ['dziennik2mqtt_ania'],
          name: 'Ania',
          manufacturer: 'Szkoła Podstawowa nr 5',
          model: 'Klasa 4b',
          sw_version: '1.2.3',
          via_device: 'dziennik2mqtt_bridge',
        },
        o: { name: 'dziennik2mqtt', sw_version: '1.2.3' },
        cmps: {
          lucky_number: {
            p: 'sensor',
            unique_id: 'dziennik2mqtt_ania_lucky_number',
            default_entity_id: 'sensor.ania_lucky_number',
            name: 'Lucky number',
            icon: 'mdi:clover',
            availability,
            availability_mode: 'all',
            state_topic: 'dziennik2mqtt/ania/lucky_number',
            json_attributes_topic: 'dziennik2mqtt/ania/lucky_number/attributes',
          },
          average: {
            p: 'sensor',
            unique_id: 'dziennik2mqtt_ania_average',
            default_entity_id: 'sensor.ania_average',
            name: 'Average',
            icon: 'mdi:chart-line',
            availability,
            availability_mode: 'all',
            state_topic: 'dziennik2mqtt/ania/average',
            json_attributes_topic: 'dziennik2mqtt/ania/average/attributes',
            state_class: 'measurement',
          },
          lessons_start_today: {
            p: 'sensor',
            unique_id: 'dziennik2mqtt_ania_lessons_start_today',
            default_entity_id: 'sensor.ania_lessons_start_today',
            name: 'Lessons start today',
            device_class: 'timestamp',
            availability,
            availability_mode: 'all',
            state_topic: 'dziennik2mqtt/ania/lessons_start_today',
          },
          problem: {
            p: 'binary_sensor',
            unique_id: 'dziennik2mqtt_ania_problem',
            default_entity_id: 'binary_sensor.ania_problem',
            name: 'Problem',
            device_class: 'problem',
            entity_category: 'diagnostic',
            // Only the bridge: the reason must be visible while the child is offline.
            availability: [{ topic: 'dziennik2mqtt/bridge/state' }],
            availability_mode: 'all',
            state_topic: 'dziennik2mqtt/ania/problem',
            json_attributes_topic: 'dziennik2mqtt/ania/problem/attributes',
            payload_on: 'ON',
            payload_off: 'OFF',
          },
          refresh: {
            p: 'button',
            unique_id: 'dziennik2mqtt_ania_refresh',
            default_entity_id: 'button.ania_refresh',
            name: 'Refresh',
            icon: 'mdi:refresh',
            availability,
            availability_mode: 'all',
            command_topic: 'dziennik2mqtt/ania/refresh/set',
            payload_press: 'refresh',
          },
          send_sick: {
            p: 'button',
            unique_id: 'dziennik2mqtt_ania_send_sick',
            default_entity_id: 'button.ania_send_sick',
            name: 'Zgłoś nieobecność',
            icon: 'mdi:send',
            availability,
            availability_mode: 'all',
            command_topic: 'dziennik2mqtt/ania/send_message/set',
            payload_press: 'sick',
          },
          grade: {
            p: 'event',
            unique_id: 'dziennik2mqtt_ania_grade',
            default_entity_id: 'event.ania_grade',
            name: 'Grade',
            icon: 'mdi:school',
            availability,
            availability_mode: 'all',
            state_topic: 'dziennik2mqtt/ania/event/grade',
            event_types: ['grade', 'grade_changed', 'grade_removed'],
            qos: 1,
          },
        },
      },
    });
  });

  it('keeps removed entities as components reduced to their platform', () => {
    const child: ChildDevice = { id: 'ania', name: 'Ania', entities: [entityByKey('refresh')] };
    const { payload } = childDiscovery(child, ctx, [entityByKey('lucky_number'), sendButton('sick', 'Zgłoś nieobecność')]);
    expect(payload.cmps).toEqual({
      lucky_number: { p: 'sensor' },
      send_sick: { p: 'button' },
      refresh: expect.objectContaining({ p: 'button', command_topic: 'dziennik2mqtt/ania/refresh/set' }),
    });
  });

  it('lets a live entity win over a removal of the same key', () => {
    const child: ChildDevice = { id: 'ania', name: 'Ania', entities: [entityByKey('refresh')] };
    const { payload } = childDiscovery(child, ctx, [entityByKey('refresh')]);
    expect((payload.cmps as Record<string, object>).refresh).toHaveProperty('command_topic');
  });

  it('names the origin support URL and falls back on defaults for device fields', () => {
    const child: ChildDevice = { id: 'jan', name: 'Jan', entities: [] };
    const { payload } = childDiscovery(child, { ...ctx, supportUrl: 'https://example.org/help' });
    expect(payload.o).toEqual({ name: 'dziennik2mqtt', sw_version: '1.2.3', support_url: 'https://example.org/help' });
    expect(payload.dev).toEqual({
      identifiers: ['dziennik2mqtt_jan'],
      name: 'Jan',
      manufacturer: 'dziennik2mqtt',
      sw_version: '1.2.3',
      via_device: 'dziennik2mqtt_bridge',
    });
  });

  it('produces a component for every catalogue entity, each with a unique id and a valid entity id', () => {
    const { payload } = childDiscovery({ id: 'ania', name: 'Ania', entities: ENTITIES }, ctx);
    const cmps = Object.values(payload.cmps as Record<string, Record<string, unknown>>);
    expect(cmps).toHaveLength(ENTITIES.length);
    expect(new Set(cmps.map((c) => c.unique_id)).size).toBe(ENTITIES.length);
    for (const c of cmps) expect(c.default_entity_id).toMatch(/^(sensor|binary_sensor|button|event)\.[a-z0-9_]+$/);
  });
});

type Components = Record<string, Record<string, unknown>>;

describe('state_class', () => {
  const cmps = childDiscovery({ id: 'ania', name: 'Ania', entities: ENTITIES }, ctx).payload.cmps as Components;

  it('is what each entity declares, so Home Assistant keeps the history of the counts and of nothing else', () => {
    // Read from the features' declarations: a new counting sensor declares `stateClass` and is checked here unnamed.
    const declared = ENTITIES.filter((e) => e.stateClass !== undefined);
    for (const e of declared) expect(cmps[e.key]?.state_class, e.key).toBe(e.stateClass);
    // Nothing else: a text state such as the grade `5+` or a lucky number of `None` would break statistics.
    const withClass = Object.keys(cmps).filter((key) => cmps[key]?.state_class !== undefined);
    expect(withClass.sort()).toEqual(declared.map((e) => e.key).sort());
    // The check above is not vacuous: the counts a family charts are among them.
    expect(withClass).toEqual(expect.arrayContaining(['unread_messages', 'average', 'homework_due', 'timetable_today', 'session_age']));
    expect(cmps.lucky_number).not.toHaveProperty('state_class');
    expect(cmps.newest_grade).not.toHaveProperty('state_class');
  });
});

describe('language', () => {
  const all: ChildDevice = { id: 'ania', name: 'Ania', entities: [...ENTITIES, sendButton('sick', 'Zgłoś nieobecność')] };
  const polish = childDiscovery(all, { ...ctx, language: 'pl' }).payload.cmps as Components;
  const english = childDiscovery(all, { ...ctx, language: 'en' }).payload.cmps as Components;

  it('names the entities in Polish for pl, buttons and events included', () => {
    expect(polish.lucky_number?.name).toBe('Szczęśliwy numerek');
    expect(polish.unread_messages?.name).toBe('Nieprzeczytane wiadomości');
    expect(polish.unread_notices?.name).toBe('Nieprzeczytane ogłoszenia');
    expect(polish.plan_changes_today?.name).toBe('Zmiany w planie dziś');
    expect(polish.newest_grade?.name).toBe('Najnowsza ocena');
    expect(polish.average?.name).toBe('Średnia');
    expect(polish.absences_unexcused?.name).toBe('Nieusprawiedliwione nieobecności');
    expect(polish.last_update?.name).toBe('Ostatnia aktualizacja');
    expect(polish.refresh?.name).toBe('Odśwież');
    expect(polish.mark_notices_read?.name).toBe('Oznacz ogłoszenia jako przeczytane');
    expect(polish.grade?.name).toBe('Ocena');
    expect(polish.plan_change?.name).toBe('Zmiana w planie');
    // Only "Problem" is the same word in both languages; no entity was left untranslated.
    const same = Object.keys(polish).filter((key) => key !== 'send_sick' && polish[key]?.name === english[key]?.name);
    expect(same).toEqual(['problem']);
  });

  it('names the entities in English for en', () => {
    expect(english.lucky_number?.name).toBe('Lucky number');
    expect(english.unread_notices?.name).toBe('Unread announcements');
    expect(english.refresh?.name).toBe('Refresh');
    expect(english.grade?.name).toBe('Grade');
  });

  it("keeps a fixed message button's configured name in both languages", () => {
    expect(polish.send_sick?.name).toBe('Zgłoś nieobecność');
    expect(english.send_sick?.name).toBe('Zgłoś nieobecność');
  });

  it('never changes ids: default_entity_id stays English and unique ids and topics stay the same', () => {
    expect(polish.lucky_number?.default_entity_id).toBe('sensor.ania_lucky_number');
    expect(polish.mark_notices_read?.default_entity_id).toBe('button.ania_mark_notices_read');
    for (const key of Object.keys(english)) {
      const { name: _pl, ...restPl } = polish[key] ?? {};
      const { name: _en, ...restEn } = english[key] ?? {};
      expect(restPl, key).toEqual(restEn);
    }
  });
});

describe('bridgeDiscovery', () => {
  it('describes the bridge device with its connection state, log level select, version, problem, uptime, memory and update', () => {
    expect(bridgeDiscovery({ ...ctx, baseTopic: 'Dziennik-2' })).toEqual({
      topic: 'homeassistant/device/Dziennik-2_bridge/config',
      payload: {
        dev: {
          identifiers: ['Dziennik-2_bridge'],
          name: 'dziennik2mqtt',
          manufacturer: 'dziennik2mqtt',
          model: 'Bridge',
          sw_version: '1.2.3',
        },
        o: { name: 'dziennik2mqtt', sw_version: '1.2.3' },
        cmps: {
          connection_state: {
            p: 'binary_sensor',
            unique_id: 'Dziennik-2_bridge_connection_state',
            default_entity_id: 'binary_sensor.dziennik_2_bridge_connection_state',
            name: 'Connection',
            device_class: 'connectivity',
            entity_category: 'diagnostic',
            state_topic: 'Dziennik-2/bridge/state',
            payload_on: 'online',
            payload_off: 'offline',
          },
          log_level: {
            p: 'select',
            unique_id: 'Dziennik-2_bridge_log_level',
            default_entity_id: 'select.dziennik_2_bridge_log_level',
            name: 'Log level',
            icon: 'mdi:text-box-search-outline',
            entity_category: 'config',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/info',
            value_template: '{{ value_json.log_level }}',
            command_topic: 'Dziennik-2/bridge/request/options',
            command_template: '{"log_level": "{{ value }}"}',
            options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace'],
          },
          version: {
            p: 'sensor',
            unique_id: 'Dziennik-2_bridge_version',
            default_entity_id: 'sensor.dziennik_2_bridge_version',
            name: 'Version',
            icon: 'mdi:information-outline',
            entity_category: 'diagnostic',
            state_topic: 'Dziennik-2/bridge/info',
            value_template: '{{ value_json.version }}',
            json_attributes_topic: 'Dziennik-2/bridge/info',
          },
          problem: {
            p: 'binary_sensor',
            unique_id: 'Dziennik-2_bridge_problem',
            default_entity_id: 'binary_sensor.dziennik_2_bridge_problem',
            name: 'Problem',
            device_class: 'problem',
            entity_category: 'diagnostic',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/problem',
            json_attributes_topic: 'Dziennik-2/bridge/problem/attributes',
            payload_on: 'ON',
            payload_off: 'OFF',
          },
          // The weekly summary on demand (interface 18.2): one button per bridge, named for its base topic.
          summary_now: {
            p: 'button',
            unique_id: 'Dziennik-2_bridge_summary_now',
            default_entity_id: 'button.dziennik_2_summary_now',
            name: 'Weekly summary now',
            icon: 'mdi:text-box-check-outline',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            command_topic: 'Dziennik-2/bridge/request/summary',
            payload_press: '{}',
          },
          summary_requested: {
            p: 'event',
            unique_id: 'Dziennik-2_bridge_summary_requested',
            default_entity_id: 'event.dziennik_2_summary_requested',
            name: 'Weekly summary asked for',
            icon: 'mdi:text-box-check-outline',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/event/summary_requested',
            event_types: ['summary_requested'],
          },
          uptime: {
            p: 'sensor',
            unique_id: 'Dziennik-2_bridge_uptime',
            default_entity_id: 'sensor.dziennik_2_bridge_uptime',
            name: 'Uptime',
            device_class: 'timestamp',
            entity_category: 'diagnostic',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/health',
            value_template: '{{ value_json.started_at }}',
          },
          memory: {
            p: 'sensor',
            unique_id: 'Dziennik-2_bridge_memory',
            default_entity_id: 'sensor.dziennik_2_bridge_memory',
            name: 'Memory',
            icon: 'mdi:memory',
            device_class: 'data_size',
            unit_of_measurement: 'MB',
            state_class: 'measurement',
            suggested_display_precision: 1,
            entity_category: 'diagnostic',
            enabled_by_default: false,
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/health',
            value_template: '{{ value_json.memory_mb }}',
          },
          update: {
            p: 'update',
            unique_id: 'Dziennik-2_bridge_update',
            default_entity_id: 'update.dziennik_2',
            name: 'Update',
            title: 'dziennik2mqtt',
            entity_category: 'config',
            availability: [{ topic: 'Dziennik-2/bridge/state' }],
            state_topic: 'Dziennik-2/bridge/update',
          },
        },
      },
    });
  });

  it("withdraws the update entity in the app, whose update is the Supervisor's", () => {
    const cmps = bridgeDiscovery({ ...ctx, update: false }).payload.cmps as Record<string, unknown>;
    expect(cmps.update).toEqual({ p: 'update' });
  });

  it('names the bridge entities in the configured language (English when none is given)', () => {
    const names = (language?: 'pl' | 'en'): unknown[] => {
      const cmps = bridgeDiscovery({ ...ctx, language }).payload.cmps as Record<string, { name: string }>;
      return [cmps.connection_state?.name, cmps.log_level?.name];
    };
    expect(names('pl')).toEqual(['Połączenie', 'Poziom logowania']);
    expect(names('en')).toEqual(['Connection', 'Log level']);
    expect(names()).toEqual(['Connection', 'Log level']);
  });

  it('names every entity of the bridge and its model in each language: only "Problem" is one word in Polish and English', () => {
    const device = (language: 'pl' | 'en' | 'uk') => {
      const payload = bridgeDiscovery({ ...ctx, language }).payload as { dev: { model: string }; cmps: Record<string, { name: string }> };
      return { model: payload.dev.model, ...Object.fromEntries(Object.entries(payload.cmps).map(([key, c]) => [key, c.name])) } as Record<
        string,
        string
      >;
    };
    const [pl, en, uk] = [device('pl'), device('en'), device('uk')];
    expect(pl).toMatchObject({ model: 'Mostek', version: 'Wersja', uptime: 'Czas działania', memory: 'Pamięć' });
    expect(uk).toMatchObject({ model: 'Міст', version: 'Версія' });
    expect(Object.keys(pl).filter((key) => pl[key] === en[key])).toEqual(['problem']);
    expect(Object.keys(uk).filter((key) => uk[key] === en[key])).toEqual([]);
  });
});
