// What the add-on asks Home Assistant's Supervisor: the MQTT broker it knows (the Mosquitto add-on,
// usually), the add-on's own slug (its ingress panel's address) and its host name (Home Assistant's way to it);
// and what it tells it: a service it offers, announced to Home Assistant (discovery) and withdrawn.
import { ConfigError } from './load.js';

const SUPERVISOR_URL = 'http://supervisor';

/** The broker the Supervisor names: its URL and credentials. */
export type MqttService = ReturnType<typeof brokerOf>;

/** The Supervisor could not be asked (no network, an unexpected answer): a runtime failure, exit 1. */
export class SupervisorError extends Error {
  override readonly name = 'SupervisorError';
  readonly status: number | undefined;

  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

export interface SupervisorOptions {
  /** SUPERVISOR_TOKEN from the add-on's environment. */
  token: string | undefined;
  /** Default http://supervisor; tests point it at a local server. */
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Aborts the call before its timeout (the bridge's stop: abandoned, not awaited). */
  signal?: AbortSignal;
}

/** Asks the Supervisor for the MQTT broker it knows (the Mosquitto add-on, usually). */
export async function supervisorMqtt(options: SupervisorOptions): Promise<MqttService> {
  // What the add-on must be told to change, by its mqtt key.
  const refused = (problem: string): ConfigError => new ConfigError('Home Assistant add-on', [`mqtt: ${problem}`]);
  if (!options.token)
    throw refused('no broker is set and SUPERVISOR_TOKEN is missing, so the Supervisor cannot be asked. Set mqtt_url in the options.');
  const url = `${options.baseUrl ?? SUPERVISOR_URL}/services/mqtt`;
  const response = await ask(options, '/services/mqtt').catch((error: unknown) => {
    throw new SupervisorError(`cannot reach the Supervisor at ${url}: ${(error as Error).message}`, undefined, { cause: error });
  });
  const body = (await response.json().catch(() => undefined)) as { result?: string; message?: string; data?: Record<string, unknown> } | undefined;
  if (response.ok && body?.result === 'ok' && body.data && typeof body.data.host === 'string') return brokerOf(body.data);
  const said = body?.message ? ` (the Supervisor said: ${body.message})` : '';
  if (response.status === 400 || response.status === 404) {
    throw refused(
      `Home Assistant has no MQTT broker${said}. Install and start the "Mosquitto broker" add-on ` +
        '(Settings > Add-ons > Add-on store), then restart this add-on; or set mqtt_url in the options.',
    );
  }
  if (response.status === 401 || response.status === 403)
    throw refused(`the Supervisor refused to name the MQTT broker${said}. The add-on needs "services: mqtt:need" in its config.yaml.`);
  throw new SupervisorError(`unexpected answer from the Supervisor (HTTP ${response.status})${said}`, response.status);
}

/**
 * The add-on's own slug as the Supervisor knows it (`<repository hash>_dziennik2mqtt`): its ingress
 * panel is /hassio/ingress/<slug>. Undefined when the Supervisor cannot say.
 */
export async function supervisorSelfSlug(options: SupervisorOptions): Promise<string | undefined> {
  const slug = (await selfInfo(options))?.slug;
  return typeof slug === 'string' && /^[\w.-]+$/.test(slug) ? slug : undefined;
}

/**
 * The add-on's host name on the Supervisor's network (its slug with dashes, `<hash>-dziennik2mqtt`): where
 * Home Assistant reaches its web server. Undefined when the Supervisor cannot say.
 */
export async function supervisorHostname(options: SupervisorOptions): Promise<string | undefined> {
  const info = await selfInfo(options);
  const name = info?.hostname ?? (typeof info?.slug === 'string' ? info.slug.replace(/_/g, '-') : undefined);
  return typeof name === 'string' && /^[A-Za-z0-9-]+$/.test(name) ? name : undefined;
}

/** /addons/self/info's data, or undefined. */
async function selfInfo(options: SupervisorOptions): Promise<Record<string, unknown> | undefined> {
  if (!options.token) return undefined;
  try {
    const response = await ask(options, '/addons/self/info');
    const body = (await response.json()) as { result?: string; data?: Record<string, unknown> };
    return response.ok && body.result === 'ok' ? body.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Announces a service the add-on offers (`POST /discovery`, the service listed under `discovery:` in its
 * config.yaml): Home Assistant offers it among the discovered integrations. The Supervisor keeps one message
 * per add-on and service (a second announcement changes its config, same uuid). Answers the message's uuid.
 */
export async function announceService(options: SupervisorOptions, service: string, config: Record<string, unknown>): Promise<string> {
  const response = await ask(options, '/discovery', { method: 'POST', body: { service, config } });
  const body = (await response.json().catch(() => undefined)) as { result?: string; message?: string; data?: { uuid?: unknown } } | undefined;
  const uuid = body?.data?.uuid;
  if (response.ok && body?.result === 'ok' && typeof uuid === 'string') return uuid;
  const said = body?.message ? ` (the Supervisor said: ${body.message})` : '';
  throw new SupervisorError(`the Supervisor refused the announcement of ${service} (HTTP ${response.status})${said}`, response.status);
}

/** Withdraws an announcement (`DELETE /discovery/<uuid>`); false when the Supervisor has none of that uuid. */
export async function withdrawService(options: SupervisorOptions, uuid: string): Promise<boolean> {
  const response = await ask(options, `/discovery/${encodeURIComponent(uuid)}`, { method: 'DELETE' });
  await response.text();
  if (response.ok) return true;
  if (response.status === 404) return false;
  throw new SupervisorError(`the Supervisor refused to withdraw an announcement (HTTP ${response.status})`, response.status);
}

/** A call of the Supervisor's API (a GET unless told) with the add-on's token, given up after the timeout (10 s). */
function ask(options: SupervisorOptions, path: string, request: { method?: string; body?: unknown } = {}): Promise<Response> {
  return (options.fetch ?? fetch)(`${options.baseUrl ?? SUPERVISOR_URL}${path}`, {
    method: request.method ?? 'GET',
    headers: { Authorization: `Bearer ${options.token}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 10_000), ...(options.signal ? [options.signal] : [])]),
  });
}

function brokerOf(data: Record<string, unknown>) {
  const host = String(data.host);
  const port = Number(data.port ?? 1883);
  const scheme = data.ssl === true ? 'mqtts' : 'mqtt';
  // An IPv6 literal needs brackets in a URL.
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `${scheme}://${hostPart}:${port}`,
    username: typeof data.username === 'string' ? data.username : '',
    password: typeof data.password === 'string' ? data.password : '',
  };
}
