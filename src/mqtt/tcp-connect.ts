// mqtt.js's connect() for a plain mqtt:// (or tcp://) broker without the code of the other transports:
// connect() loads WebSocket and SOCKS support (ws, socks, ip-address, smart-buffer) on its first call
// whatever the URL, about 3 MB of RSS for the life of the bridge. The client options come from the URL
// as connect() makes them; mqtts://, ws://, wss:// and a SOCKS proxy still go through connect().
import { createConnection } from 'node:net';
import { connect, MqttClient, type IClientOptions } from 'mqtt';

type Options = IClientOptions & { auth?: string; query?: Record<string, string>; hostname?: string; path?: string; defaultProtocol?: string };

export function connectMqtt(url: string, options: IClientOptions): MqttClient {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return connect(url, options);
  }
  const protocol = parsed.protocol.replace(/:$/, '');
  const plain = protocol === 'mqtt' || protocol === 'tcp';
  if (!plain || process.env.MQTTJS_SOCKS_PROXY !== undefined || options.socksProxy !== undefined || (options.cert && options.key)) {
    return connect(url, options);
  }
  const fromUrl: Options = { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), protocol, query: Object.fromEntries(parsed.searchParams) };
  if (parsed.port !== '') fromUrl.port = Number(parsed.port);
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  if (user || password) fromUrl.auth = password ? `${user}:${password}` : user;
  const opts: Options = { ...fromUrl, ...options };
  // As connect(): credentials in the URL win, split at the last colon.
  if (opts.auth) {
    const match = /^(.+):(.+)$/.exec(opts.auth);
    opts.username = match ? match[1] : opts.auth;
    if (match) opts.password = match[2];
  }
  if (typeof opts.query?.clientId === 'string') opts.clientId = opts.query.clientId;
  opts.defaultProtocol = opts.protocol;
  const client = new MqttClient(() => {
    opts.port = opts.port || 1883;
    opts.hostname = opts.hostname || opts.host || 'localhost';
    return createConnection({ port: opts.port, host: opts.hostname });
  }, opts);
  // connect() adds this too: errors reach the listeners the bridge adds, never an unhandled 'error'.
  client.on('error', () => undefined);
  return client;
}
