// Reading our own retained device configs, and the broker URL made safe to log.
import { describe, expect, it } from 'vitest';
import { childDiscovery } from '../../../../src/outputs/mqtt/discovery.js';
import { ENTITIES } from '../../../../src/features/index.js';
import { Topics } from '../../../../src/outputs/mqtt/topics.js';
import { redactUrl } from '../../../../src/outputs/mqtt/client.js';
import { readOwnDeviceConfig } from '../../../../src/outputs/mqtt/retained.js';

const topics = new Topics('d2m', 'ha');
const ctx = { baseTopic: 'd2m', discoveryPrefix: 'ha', version: '1' };
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('readOwnDeviceConfig', () => {
  it('lists live components with their retained topics', () => {
    const keys = ['lucky_today', 'average', 'refresh', 'grade'];
    const child = { id: 'ania', name: 'Ania', entities: ENTITIES.filter((e) => keys.includes(e.key)) };
    const removed = ENTITIES.filter((e) => e.key === 'newest_note');
    const { topic, payload } = childDiscovery(child, ctx, removed);
    const device = readOwnDeviceConfig(topics, topic, json(payload));
    expect(device?.child).toBe('ania');
    expect(Object.fromEntries(device?.components ?? [])).toEqual({
      lucky_today: { platform: 'binary_sensor', retainedTopics: ['d2m/ania/lucky_today'] },
      average: { platform: 'sensor', retainedTopics: ['d2m/ania/average', 'd2m/ania/average/attributes'] },
      refresh: { platform: 'button', retainedTopics: [] },
      grade: { platform: 'event', retainedTopics: [] },
    });
  });

  it('ignores configs that are not a child of this bridge, and never clears foreign topics', () => {
    const topic = 'ha/device/d2m_ania/config';
    const dev = { identifiers: ['d2m_ania'], name: 'Ania', via_device: 'd2m_bridge' };
    expect(readOwnDeviceConfig(topics, topic, json({ dev: { ...dev, via_device: 'other_bridge' }, cmps: {} }))).toBeUndefined();
    expect(readOwnDeviceConfig(topics, 'ha/device/d2m_bridge/config', json({ dev, cmps: {} }))).toBeUndefined();
    expect(readOwnDeviceConfig(topics, topic, Buffer.from('not json'))).toBeUndefined();
    expect(readOwnDeviceConfig(topics, topic, Buffer.alloc(0))).toBeUndefined();
    const device = readOwnDeviceConfig(topics, topic, json({ dev, cmps: { x: { p: 'sensor', state_topic: 'zigbee/lamp' } } }));
    expect(device?.components.get('x')).toEqual({ platform: 'sensor', retainedTopics: [] });
  });
});

describe('redactUrl', () => {
  it('drops the user name and password', () => {
    expect(redactUrl('mqtts://user:p%40ss@broker.local:8883')).toBe('mqtts://broker.local:8883');
    expect(redactUrl('mqtt://127.0.0.1:1883')).toBe('mqtt://127.0.0.1:1883');
    expect(redactUrl('not a url')).toBe('[invalid url]');
  });
});
