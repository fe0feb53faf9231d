// The diagnostic entities (interface 9.2) as Home Assistant's MQTT discovery takes them: each child's
// figures and the bridge device's uptime, memory and broker connection. The rules restate what Home
// Assistant's sensor and binary_sensor platforms refuse or warn about in a discovered component
// (homeassistant/components/sensor/const.py's units per device class and the state classes they allow,
// the entity categories a sensor may have), applied to every component the bridge announces.
import { describe, expect, it } from 'vitest';
import { bridgeDiscovery, childDiscovery, type DiscoveryContext } from '../../../../src/outputs/mqtt/discovery.js';
import { ENTITIES } from '../../../../src/features/index.js';

const ctx: DiscoveryContext = { baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: '1.2.3', language: 'en' };
type Components = Record<string, Record<string, unknown>>;

const child = childDiscovery({ id: 'ania', name: 'Ania', entities: ENTITIES }, ctx).payload.cmps as Components;
const bridge = bridgeDiscovery(ctx).payload.cmps as Components;

/** Units Home Assistant accepts per sensor device class (only the classes the bridge uses). */
const UNITS: Record<string, readonly (string | undefined)[]> = {
  timestamp: [undefined],
  duration: ['d', 'h', 'min', 's', 'ms'],
  data_size: ['bit', 'kbit', 'Mbit', 'Gbit', 'B', 'kB', 'MB', 'GB', 'TB', 'PB', 'KiB', 'MiB', 'GiB', 'TiB'],
};
const BINARY_CLASSES = ['problem', 'connectivity', 'presence'];

/** What Home Assistant refuses (or logs as an error) in a discovered sensor or binary sensor. */
function haProblems(c: Record<string, unknown>): string[] {
  const problems: string[] = [];
  // A sensor may not be a config entity (sensor/__init__.py refuses it); a select or an update may (an update is one by default).
  const configAllowed = c.p === 'select' || c.p === 'update';
  if (c.entity_category !== undefined && c.entity_category !== 'diagnostic' && !(c.entity_category === 'config' && configAllowed)) {
    problems.push(`entity_category ${String(c.entity_category)} is not for a ${String(c.p)}`);
  }
  if (c.enabled_by_default !== undefined && typeof c.enabled_by_default !== 'boolean') problems.push('enabled_by_default must be true or false');
  if (c.p === 'binary_sensor' && c.device_class !== undefined && !BINARY_CLASSES.includes(String(c.device_class)))
    problems.push('unknown binary sensor class');
  if (c.p !== 'sensor') return problems;
  const deviceClass = c.device_class as string | undefined;
  if (deviceClass !== undefined) {
    const units = UNITS[deviceClass];
    if (units === undefined) problems.push(`device_class ${deviceClass} not checked here`);
    else if (!units.includes(c.unit_of_measurement as string | undefined))
      problems.push(`unit ${String(c.unit_of_measurement)} is not one of ${deviceClass}'s`);
  }
  // A timestamp has no state class; a measurement is a number.
  if (deviceClass === 'timestamp' && c.state_class !== undefined) problems.push('a timestamp cannot have a state_class');
  if (c.suggested_display_precision !== undefined && (typeof c.suggested_display_precision !== 'number' || c.state_class === undefined))
    problems.push('suggested_display_precision only for a numeric sensor');
  return problems;
}

describe('the diagnostic entities in discovery', () => {
  it('gives each child its figures as diagnostics that stay readable while the child is offline, the noisy ones switched off', () => {
    const bridgeOnly = [{ topic: 'dziennik2mqtt/bridge/state' }];
    expect(child.requests_today).toMatchObject({
      p: 'sensor',
      entity_category: 'diagnostic',
      enabled_by_default: false,
      state_class: 'measurement',
      availability: bridgeOnly,
      json_attributes_topic: 'dziennik2mqtt/ania/requests_today/attributes',
    });
    expect(child.logins_today).toMatchObject({ p: 'sensor', entity_category: 'diagnostic', state_class: 'measurement', availability: bridgeOnly });
    // The one a family should see without asking: a day of many logins is the fault to look at.
    expect(child.logins_today).not.toHaveProperty('enabled_by_default');
    expect(child.last_read).toMatchObject({
      p: 'sensor',
      device_class: 'timestamp',
      entity_category: 'diagnostic',
      enabled_by_default: false,
      availability: bridgeOnly,
    });
    expect(child.session_age).toMatchObject({
      p: 'sensor',
      device_class: 'duration',
      unit_of_measurement: 'min',
      entity_category: 'diagnostic',
      enabled_by_default: false,
    });
    // Nothing else of a child's is switched off.
    expect(
      Object.keys(child)
        .filter((key) => child[key]?.enabled_by_default === false)
        .sort(),
    ).toEqual(['last_read', 'requests_today', 'session_age']);
  });

  it('gives the bridge device its uptime (a timestamp), its memory (off until turned on) and its broker connection', () => {
    expect(bridge.uptime).toMatchObject({
      p: 'sensor',
      device_class: 'timestamp',
      entity_category: 'diagnostic',
      state_topic: 'dziennik2mqtt/bridge/health',
    });
    expect(bridge.uptime).not.toHaveProperty('enabled_by_default');
    expect(bridge.memory).toMatchObject({
      p: 'sensor',
      device_class: 'data_size',
      unit_of_measurement: 'MB',
      enabled_by_default: false,
      state_topic: 'dziennik2mqtt/bridge/health',
    });
    // The broker: the last will's online/offline, so it reads disconnected (not unavailable) when the bridge is gone.
    expect(bridge.connection_state).toMatchObject({
      p: 'binary_sensor',
      device_class: 'connectivity',
      entity_category: 'diagnostic',
      state_topic: 'dziennik2mqtt/bridge/state',
    });
    expect(bridge.connection_state).not.toHaveProperty('availability');
  });

  it("passes Home Assistant's rules for sensors and binary sensors, every component of a child and of the bridge", () => {
    for (const [key, component] of [...Object.entries(child), ...Object.entries(bridge)]) expect(haProblems(component), key).toEqual([]);
  });

  it('the rules can tell: a timestamp with a state class, a wrong unit, a sensor in config are refused', () => {
    expect(haProblems({ p: 'sensor', device_class: 'timestamp', state_class: 'measurement' })).toEqual(['a timestamp cannot have a state_class']);
    expect(haProblems({ p: 'sensor', device_class: 'duration', unit_of_measurement: 'minutes' })).toEqual(["unit minutes is not one of duration's"]);
    expect(haProblems({ p: 'sensor', entity_category: 'config' })).toEqual(['entity_category config is not for a sensor']);
    expect(haProblems({ p: 'sensor', enabled_by_default: 'no' })).toEqual(['enabled_by_default must be true or false']);
  });
});
