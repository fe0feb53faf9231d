// Creating the mqtt.js client: options (last will, credentials only when given, TLS as tls.ts reads it), the
// reconnect backoff, the wait for the first connection, what a failed attempt means in one line with the
// broker URL made safe to log, and how a takeover of the client id shows.
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { connect, MqttClient, type IClientOptions } from 'mqtt';
import type { MqttConfig } from '../../config/schema.js';
import { BROKER_SETTING, type BrokerOrigin } from '../../config/broker-origin.js';
import type { Logger } from '../../util/log.js';
import { MAX_PACKET_BYTES } from './sizes.js';
import type { MqttSession } from '../../once/session.js';
import { errorText } from '../../util/text.js';
import { CHECK_TEXT, type BrokerFault } from '../../i18n/check-text.js';
import { certificateFault, tlsOptions } from './tls.js';

export interface ClientSettings {
  mqtt: MqttConfig;
  /**
   * 5 (the default) tells the broker the largest packet the bridge takes; a broker that refuses MQTT 5
   * gets 3.1.1 from the next attempt on, which comes at once (VERSION_RETRY_MS). 4 for a broker known
   * to speak only 3.1.1 (the demo's own).
   */
  protocolVersion?: 4 | 5;
  /** None for a bridge waiting while another holds its base topic (lease/claim.ts): its going says nothing. */
  will?: { topic: string; payload: string };
  /** Delay before the first reconnect attempt (later ones follow nextReconnectDelay). */
  reconnectPeriodMs: number;
  /** The data_dir's kept session (events at QoS 2 stored before they are sent) under the installation's client id; without it a clean one. */
  session?: { store: MqttSession; clientId: string };
}

/** How soon a broker that refused MQTT 5 is asked again in MQTT 3.1.1. */
export const VERSION_RETRY_MS = 200;

/** 5 s, 10 s, 20 s, 40 s, then every minute: quick when the broker is just starting, quiet when it is gone. */
export const DEFAULT_RECONNECT = { firstMs: 5_000, maxMs: 60_000 };

/** Reconnect delays: `firstMs` after a failure, doubling per failed attempt up to `maxMs`. */
export type ReconnectPolicy = typeof DEFAULT_RECONNECT;

export function nextReconnectDelay(previousMs: number, policy: ReconnectPolicy): number {
  return Math.min(policy.maxMs, Math.max(policy.firstMs, previousMs * 2));
}

/** The URL without user name or password, for log lines and errors. */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return '[invalid url]';
  const parsed = new URL(url);
  parsed.password = '';
  parsed.username = '';
  return parsed.toString();
}

/**
 * What every connection to the broker is made with (the bridge's, `check`'s): a fresh client id, a clean
 * session, the config's TLS files, and its user name and password only when given (an explicit undefined
 * would wipe credentials written in the URL).
 */
export function brokerOptions(mqtt: MqttConfig, name: string, more: IClientOptions): IClientOptions {
  const { username, password } = mqtt;
  const credentials = { ...(username ? { username } : {}), ...(password ? { password } : {}) };
  return { clientId: `${name}_${randomBytes(4).toString('hex')}`, clean: true, ...more, ...tlsOptions(mqtt), ...credentials };
}

export function createClient(settings: ClientSettings): MqttClient {
  const fresh = brokerOptions(settings.mqtt, 'dziennik2mqtt', {
    protocolVersion: settings.protocolVersion ?? 5,
    ...(settings.protocolVersion === 4 ? {} : { properties: { maximumPacketSize: MAX_PACKET_BYTES } }),
    reconnectPeriod: settings.reconnectPeriodMs,
    // A refused user name or password is retried too: the Mosquitto add-on may load its users after
    // it starts listening, and a fixed config is picked up without a restart loop.
    reconnectOnConnackError: true,
    // Retained things are republished after every connect, so only QoS 1 and 2 (results, events) are queued offline.
    queueQoSZero: false,
    // mqtt-packet would otherwise build a table of 65,536 two-byte Buffers on the first packet, about
    // 6 MB of heap held for the life of the process, to save one tiny allocation per packet id.
    writeCache: false,
  });
  if (settings.will) fresh.will = { topic: settings.will.topic, payload: Buffer.from(settings.will.payload), qos: 1, retain: true };
  const options = settings.session?.store.kept(fresh, settings.session.clientId) ?? fresh;
  const { url } = settings.mqtt;
  const tcp = plainTcpBroker(url);
  const client = tcp === undefined ? connect(url, options) : tcpClient(tcp, options);
  client.on('error', (err) => {
    if (connectFault(err) !== 'old_version' || client.options.protocolVersion !== 5) return;
    // Read when the next attempt builds its CONNECT: 3.1.1 has no maximum packet size to tell.
    client.options.protocolVersion = 4;
    delete client.options.properties;
    // The broker is there and answered: the attempt in 3.1.1 goes at once rather than after the usual
    // reconnect delay (read when the reconnect is scheduled, after this; the backoff takes over again
    // from the next failure on).
    client.options.reconnectPeriod = VERSION_RETRY_MS;
  });
  return client;
}

function tcpClient(tcp: TcpBroker, options: IClientOptions): MqttClient {
  // A plain TCP broker (the usual case) gets its socket here: connect() loads the WebSocket and SOCKS
  // code of every transport on its first call (ws, socks, ip-address), about 2 MB of RSS for nothing
  // (see `npm run bench`). TLS, WebSockets, a SOCKS proxy and URL query options still go through it.
  const client = new MqttClient(() => createConnection({ host: tcp.host, port: tcp.port }), {
    ...options,
    ...tcp.credentials,
    protocol: 'mqtt',
    host: tcp.host,
    hostname: tcp.host,
    port: tcp.port,
  });
  // As connect() does: a failed attempt is reported through 'offline'/'close'; an 'error' event
  // with no listener would end the process.
  client.on('error', () => undefined);
  return client;
}

interface TcpBroker {
  host: string;
  port: number;
  /** Credentials written in the URL win over the configured ones, as in mqtt.js's connect(). */
  credentials: { username?: string; password?: string };
}

/** host and port of an mqtt:// or tcp:// URL without query options, when no SOCKS proxy is set. */
export function plainTcpBroker(url: string, env: NodeJS.ProcessEnv = process.env): TcpBroker | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if ((parsed.protocol !== 'mqtt:' && parsed.protocol !== 'tcp:') || parsed.search !== '' || env.MQTTJS_SOCKS_PROXY !== undefined) return undefined;
  const credentials: TcpBroker['credentials'] = {};
  if (parsed.username !== '') {
    credentials.username = decodeURIComponent(parsed.username);
    if (parsed.password !== '') credentials.password = decodeURIComponent(parsed.password);
  }
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port === '' ? 1883 : Number(parsed.port), credentials };
}

/** CONNACK codes for a bad user name or password, or not authorised (MQTT 3 and 5). */
const NOT_AUTHORISED: ReadonlySet<unknown> = new Set([4, 5, 134, 135]);

/** CONNACK codes for a protocol version the broker does not speak (MQTT 3 and 5). */
const UNSUPPORTED_VERSION: ReadonlySet<unknown> = new Set([1, 132]);

/** What a failed connection attempt's error means: the kinds `check` and the log tell apart. */
export function connectFault(error: unknown): BrokerFault {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (NOT_AUTHORISED.has(code)) return 'not_authorised';
  if (UNSUPPORTED_VERSION.has(code)) return 'old_version';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown_host';
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no_answer';
  return certificateFault(error) ?? 'other';
}

/** Resolves on the first connection, however many attempts it takes; rejects only on `end` (stop). */
export function waitForConnect(client: MqttClient, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onConnect = (): void => {
      client.off('end', onEnd);
      resolve();
    };
    const onEnd = (): void => {
      client.off('connect', onConnect);
      // The bridge was stopped before the broker accepted a connection.
      reject(new Error(`cannot connect to the MQTT broker at ${url}: stopped before connecting`));
    };
    client.once('connect', onConnect);
    client.once('end', onEnd);
  });
}

/**
 * What a failed connection attempt means and what to check, for a log line a person acts on: no stack
 * trace, no credentials (the error messages of node and mqtt.js carry neither).
 */
export function explainConnectFailure(url: string, error: unknown, from: BrokerOrigin = 'file'): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const where = BROKER_SETTING[from];
  const fault = connectFault(error);
  switch (fault) {
    case 'not_authorised':
      return "not authorised: the broker refused the user name or password. Check mqtt.username and mqtt.password; Home Assistant's Mosquitto add-on accepts no anonymous clients, it needs a user (a Home Assistant user or one in its logins option)";
    case 'old_version':
      return 'the broker does not speak MQTT 5: the next attempt uses MQTT 3.1.1';
    case 'refused':
      if (from === 'supervisor')
        return "connection refused: the broker the Supervisor named (the Mosquitto broker add-on) does not answer (yet). Check that the add-on runs, or set mqtt_url in this add-on's options";
      return isLoopback(url)
        ? `connection refused: no broker listens there (yet). Inside Docker${from === 'env' ? '' : ' or the Home Assistant add-on'}, 127.0.0.1 is the container itself, not the machine: set the broker host's address in ${where}${from === 'env' ? '' : ' (for the Mosquitto add-on mqtt://core-mosquitto:1883)'}`
        : `connection refused: no broker listens on that host and port (yet). Check that the broker runs and the port in ${where}`;
    case 'unknown_host':
      return `the host name in ${where} is not known here. Check its spelling (inside Docker, use a name the container can resolve)`;
    case 'no_answer':
      return `the host does not answer. Check the address in ${where} and any firewall between`;
    case 'other':
      if (code === undefined) return `the connection closed before the broker accepted it. Check ${where} (mqtt:// or mqtts:// and the port)`;
      return `${typeof code === 'number' ? 'the broker refused the connection' : String(code)}: ${errorText(error)}`;
    default: {
      const [what, advice] = CHECK_TEXT.en.broker.help(from)[fault];
      return `${what} (${errorText(error)}): ${advice}`;
    }
  }
}

function isLoopback(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname;
  return host === 'localhost' || host.startsWith('127.') || host === '[::1]';
}

export interface WatchSettings {
  /** The broker URL without credentials. */
  url: string;
  /** Where the URL came from: the advice names that place. */
  from?: BrokerOrigin;
  policy: ReconnectPolicy;
  log: Logger;
  /** True once the owner stops: closing then is expected, not worth a line. */
  stopped: () => boolean;
  /** Connected; `sessionKept`: the broker kept the session (its subscriptions stand, and mqtt.js makes none again). */
  onConnect: (sessionKept: boolean) => void;
}

/**
 * One log line per failed attempt, naming the broker, what the failure means and when the next attempt
 * comes; the delay doubles per failure up to policy.maxMs and starts again after a connection. mqtt.js
 * reads `options.reconnectPeriod` each time it schedules a reconnect, so the backoff is set there.
 */
export function watchConnection(client: MqttClient, settings: WatchSettings): void {
  const { url, policy, log } = settings;
  let attempt = 1;
  let lastError: unknown;
  const period = (): number => client.options.reconnectPeriod ?? policy.firstMs;
  client.on('error', (err) => {
    if (client.connected) log.warn({ url, err: err.message }, 'MQTT error');
    else lastError = err;
  });
  client.on('close', () => {
    if (settings.stopped()) return;
    const retryInS = Math.round(period() / 100) / 10;
    const what =
      attempt === 0 ? `lost the connection to the MQTT broker at ${url}` : `cannot connect to the MQTT broker at ${url} (attempt ${attempt})`;
    const why = lastError === undefined && attempt === 0 ? 'the connection closed' : explainConnectFailure(url, lastError, settings.from);
    log.warn({ url, attempt, retry_in_s: retryInS }, `${what}: ${why}; trying again in ${retryInS} s`);
    lastError = undefined;
  });
  client.on('reconnect', () => {
    if (attempt > 0) client.options.reconnectPeriod = nextReconnectDelay(period(), policy);
    attempt++;
  });
  client.on('connect', (connack) => {
    attempt = 0;
    client.options.reconnectPeriod = policy.firstMs;
    settings.onConnect(connack.sessionPresent);
  });
}

/** Broker-closed connections younger than this, this many within the window, are another taking the client id (repeated takeovers). */
const TAKEOVER = { livedMs: 30_000, count: 3, withinMs: 60_000 };

/**
 * Calls `taken` once another connection took this client's id: at MQTT 5's DISCONNECT 0x8E (session taken
 * over), or, where a broker closes the old connection without it (Mosquitto 2.0.11, MQTT 3.1.1), when it
 * closed young connections without an error three times within a minute, the broker answering at once each
 * time: two clients taking one id from each other.
 */
export function watchTakeovers(client: MqttClient, taken: () => void): void {
  let connectedAt: number | undefined;
  let failed = false;
  const closes: number[] = [];
  client.on('disconnect', (packet) => packet.reasonCode === 0x8e && taken());
  client.on('connect', () => (connectedAt = performance.now()));
  client.on('error', () => (failed = true));
  client.on('close', () => {
    const now = performance.now();
    if (connectedAt !== undefined && !failed && now - connectedAt < TAKEOVER.livedMs) closes.push(now);
    while (closes.length > 0 && now - (closes[0] ?? now) > TAKEOVER.withinMs) closes.shift();
    if (closes.length >= TAKEOVER.count) taken();
    connectedAt = undefined;
    failed = false;
  });
}
