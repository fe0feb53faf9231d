// Topic building and parsing.
import { describe, expect, it } from 'vitest';
import { Topics } from '../../../../src/outputs/mqtt/topics.js';

const topics = new Topics('dziennik2mqtt', 'homeassistant');

describe('Topics', () => {
  it('builds the interface topics', () => {
    expect(topics.bridgeState).toBe('dziennik2mqtt/bridge/state');
    expect(topics.bridgeInfo).toBe('dziennik2mqtt/bridge/info');
    expect(topics.availability('ania')).toBe('dziennik2mqtt/ania/availability');
    expect(topics.state('ania', 'average')).toBe('dziennik2mqtt/ania/average');
    expect(topics.attributes('ania', 'average')).toBe('dziennik2mqtt/ania/average/attributes');
    expect(topics.event('ania', 'grade')).toBe('dziennik2mqtt/ania/event/grade');
    expect(topics.commandSet('ania', 'refresh')).toBe('dziennik2mqtt/ania/refresh/set');
    expect(topics.commandResult('ania', 'refresh')).toBe('dziennik2mqtt/ania/refresh/result');
    expect(topics.haStatus).toBe('homeassistant/status');
    expect(topics.deviceConfig('ania')).toBe('homeassistant/device/dziennik2mqtt_ania/config');
  });

  it('parses command topics and nothing else', () => {
    expect(topics.parseCommandSet('dziennik2mqtt/ania/send_message/set')).toEqual({ child: 'ania', command: 'send_message' });
    expect(topics.parseCommandSet('dziennik2mqtt/ania/send_message/result')).toBeUndefined();
    expect(topics.parseCommandSet('other/ania/refresh/set')).toBeUndefined();
    expect(topics.parseCommandSet('dziennik2mqtt/ania/x/refresh/set')).toBeUndefined();
    expect(topics.parseCommandSet('dziennik2mqtt//refresh/set')).toBeUndefined();
  });

  it('builds and parses bridge requests and their responses', () => {
    expect(topics.bridgeRequest('options')).toBe('dziennik2mqtt/bridge/request/options');
    expect(topics.bridgeResponse('options')).toBe('dziennik2mqtt/bridge/response/options');
    expect(topics.bridgeRequestFilter).toBe('dziennik2mqtt/bridge/request/+');
    expect(topics.parseBridgeRequest('dziennik2mqtt/bridge/request/health_check')).toBe('health_check');
    expect(topics.parseBridgeRequest('dziennik2mqtt/bridge/request/')).toBeUndefined();
    expect(topics.parseBridgeRequest('dziennik2mqtt/bridge/request/a/b')).toBeUndefined();
    expect(topics.parseBridgeRequest('dziennik2mqtt/bridge/response/options')).toBeUndefined();
    expect(topics.parseBridgeRequest('other/bridge/request/options')).toBeUndefined();
  });

  it('parses only child device configs of this base topic', () => {
    expect(topics.parseDeviceConfig('homeassistant/device/dziennik2mqtt_ania/config')).toBe('ania');
    expect(topics.parseDeviceConfig('homeassistant/device/dziennik2mqtt_bridge/config')).toBeUndefined();
    expect(topics.parseDeviceConfig('homeassistant/device/zigbee_lamp/config')).toBeUndefined();
    expect(topics.parseDeviceConfig('homeassistant/sensor/dziennik2mqtt_ania/config')).toBeUndefined();
  });
});
