// What a failed broker connection means, in the one line the bridge logs per attempt, and the backoff.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECONNECT, explainConnectFailure, nextReconnectDelay } from '../../../../src/outputs/mqtt/client.js';

const error = (code: string | number, message = String(code)): Error => Object.assign(new Error(message), { code });

describe('explainConnectFailure', () => {
  it('points at the container itself for a refused 127.0.0.1 or localhost, at the broker for another host', () => {
    expect(explainConnectFailure('mqtt://127.0.0.1:1883', error('ECONNREFUSED'))).toContain('127.0.0.1 is the container itself');
    expect(explainConnectFailure('mqtt://localhost:1883', error('ECONNREFUSED'))).toContain('core-mosquitto');
    const remote = explainConnectFailure('mqtt://192.168.1.10:1883', error('ECONNREFUSED'));
    expect(remote).toContain('connection refused');
    expect(remote).not.toContain('container');
  });

  it('names the place the address came from: the config file, the environment, the form or the Supervisor', () => {
    const refused = error('ECONNREFUSED');
    expect(explainConnectFailure('mqtt://127.0.0.1:1883', refused, 'file')).toMatch(/mqtt\.url .*core-mosquitto/);
    // A Compose user set the environment variable: no add-on, no config key to look for.
    const compose = explainConnectFailure('mqtt://127.0.0.1:1883', refused, 'env');
    expect(compose).toContain('DZIENNIK2MQTT_MQTT_URL');
    expect(compose).not.toMatch(/mqtt\.url|core-mosquitto|add-on/);
    expect(explainConnectFailure('mqtt://brokr:1883', error('ENOTFOUND'), 'env')).toContain('host name in DZIENNIK2MQTT_MQTT_URL is not known');
    expect(explainConnectFailure('mqtt://10.0.0.2:1883', refused, 'form')).toContain("port in mqtt_url in the add-on's options");
    // The Supervisor gave the address: the Mosquitto add-on is what to look at, never a key the parent never typed.
    const app = explainConnectFailure('mqtt://core-mosquitto:1883', refused, 'supervisor');
    expect(app).toContain('the broker the Supervisor named (the Mosquitto broker add-on) does not answer');
    expect(app).not.toContain('mqtt.url');
  });

  it('says not authorised, with the add-on user advice, for refused credentials (MQTT 3 and 5 codes)', () => {
    for (const code of [4, 5, 134, 135]) {
      expect(explainConnectFailure('mqtt://core-mosquitto:1883', error(code))).toMatch(/^not authorised: .*mqtt\.username.*needs a user/);
    }
  });

  it('says the next attempt uses MQTT 3.1.1 when the broker refuses MQTT 5 (the MQTT 3 and 5 codes)', () => {
    for (const code of [1, 132]) {
      expect(explainConnectFailure('mqtt://old-broker:1883', error(code))).toBe('the broker does not speak MQTT 5: the next attempt uses MQTT 3.1.1');
    }
  });

  it('names an unknown host and an unreachable one', () => {
    expect(explainConnectFailure('mqtt://brokr:1883', error('ENOTFOUND'))).toContain('host name in mqtt.url is not known');
    expect(explainConnectFailure('mqtt://10.0.0.9:1883', error('EHOSTUNREACH'))).toContain('does not answer');
  });
});

describe('nextReconnectDelay', () => {
  it('doubles from 5 s up to one minute', () => {
    const delays = [DEFAULT_RECONNECT.firstMs];
    while (delays.length < 7) delays.push(nextReconnectDelay(delays.at(-1)!, DEFAULT_RECONNECT));
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
  });
});
