// The mqtt:// client built without mqtt.js's connect() must get the options connect() would give it:
// host, port, credentials from the URL (they win over the config's, as in connect()), a clientId
// from the query; other transports go through connect() itself.
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { connectMqtt } from '../../../src/mqtt/tcp-connect.js';

const KEYS = ['protocol', 'host', 'port', 'username', 'password', 'clientId', 'clean', 'reconnectPeriod'] as const;

function optionsOf(client: MqttClient): Record<string, unknown> {
  // manualConnect: nothing was opened, so there is nothing to end.
  return Object.fromEntries(KEYS.map((k) => [k, (client.options as Record<string, unknown>)[k]]));
}

describe('connectMqtt', () => {
  const base: IClientOptions = { manualConnect: true, clientId: 'd2m_test', clean: true, reconnectPeriod: 5000 };
  it.each([
    'mqtt://127.0.0.1:1883',
    'mqtt://broker.lan',
    'tcp://core-mosquitto:1884',
    'mqtt://someone:s3cret@127.0.0.1:1883',
    'mqtt://some%40one:p%3Ass@broker.lan:1883',
    'mqtt://onlyuser@broker.lan',
    'mqtt://[::1]:1883/?clientId=fromurl',
  ])('derives what connect() derives from %s', (url) => {
    expect(optionsOf(connectMqtt(url, { ...base }))).toEqual(optionsOf(connect(url, { ...base })));
    expect(optionsOf(connectMqtt(url, { ...base, username: 'config', password: 'configpw' }))).toEqual(
      optionsOf(connect(url, { ...base, username: 'config', password: 'configpw' })),
    );
  });
});
