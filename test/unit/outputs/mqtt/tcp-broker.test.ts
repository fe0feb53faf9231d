// Which broker URLs the client connects to with its own TCP socket (no WebSocket or SOCKS code
// loaded), and with what host, port and credentials; the others go through mqtt.js's connect().
import { describe, expect, it } from 'vitest';
import { plainTcpBroker } from '../../../../src/outputs/mqtt/client.js';

describe('plainTcpBroker', () => {
  it('takes host and port of mqtt:// and tcp:// URLs, 1883 by default', () => {
    expect(plainTcpBroker('mqtt://core-mosquitto:1884', {})).toEqual({ host: 'core-mosquitto', port: 1884, credentials: {} });
    expect(plainTcpBroker('tcp://192.168.1.5', {})).toEqual({ host: '192.168.1.5', port: 1883, credentials: {} });
    expect(plainTcpBroker('mqtt://[::1]:1883', {})?.host).toBe('::1');
  });

  it('keeps credentials written in the URL, decoded', () => {
    expect(plainTcpBroker('mqtt://ha%40home:p%3Ass@broker:1883', {})?.credentials).toEqual({ username: 'ha@home', password: 'p:ss' });
    expect(plainTcpBroker('mqtt://ha@broker', {})?.credentials).toEqual({ username: 'ha' });
  });

  it('leaves TLS, WebSockets, query options and a SOCKS proxy to mqtt.js', () => {
    expect(plainTcpBroker('mqtts://broker:8883', {})).toBeUndefined();
    expect(plainTcpBroker('ws://broker:9001/mqtt', {})).toBeUndefined();
    expect(plainTcpBroker('wss://broker/mqtt', {})).toBeUndefined();
    expect(plainTcpBroker('mqtt://broker?clientId=x', {})).toBeUndefined();
    expect(plainTcpBroker('mqtt://broker', { MQTTJS_SOCKS_PROXY: 'socks5://proxy:1080' })).toBeUndefined();
    expect(plainTcpBroker('not a url', {})).toBeUndefined();
  });
});
