// A model of the Supervisor's discovery API as an app calls it, built from the Supervisor's source
// (supervisor/api/discovery.py and supervisor/discovery/__init__.py): the app's token as the bearer or 401;
// `POST /discovery` {service, config} refused (403) for a service the app's config.yaml does not list under
// `discovery:` (read from hassio-addon/config.yaml itself), one message kept per app and service (a second
// announcement changes its config and keeps its uuid); `DELETE /discovery/<uuid>`, 404 for an unknown one.
// Every answer is wrapped as api_process wraps it ({result, data} or {result: "error", message}).
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeHttp, listenOnLoopback } from './ports.js';
import { randomUUID } from 'node:crypto';
import { parse } from 'yaml';

export interface DiscoveryMessage {
  uuid: string;
  service: string;
  config: Record<string, unknown>;
}

export class SupervisorModel {
  /** The messages Home Assistant is offered now. */
  readonly messages = new Map<string, DiscoveryMessage>();
  /** Every request: method, path, status answered. */
  readonly calls: { method: string; path: string; status: number }[] = [];
  /** Answer every request with this status (the Supervisor restarting). */
  outage: 500 | undefined;
  url = '';
  private server: Server | undefined;
  private declared: string[] = [];

  constructor(readonly token: string) {}

  async start(): Promise<void> {
    const addon = parse(await readFile(new URL('../../hassio-addon/config.yaml', import.meta.url), 'utf8')) as { discovery?: string[] };
    this.declared = addon.discovery ?? [];
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = `http://127.0.0.1:${await listenOnLoopback(this.server)}`;
  }

  async stop(): Promise<void> {
    await closeHttp(this.server);
  }

  /** The POSTs and DELETEs of /discovery, as "METHOD path". */
  changes(): string[] {
    return this.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const [status, body] = this.route(req, Buffer.concat(chunks).toString('utf8'));
    this.calls.push({ method: req.method ?? '', path: req.url ?? '', status });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private route(req: IncomingMessage, text: string): [number, unknown] {
    const error = (status: number, message: string): [number, unknown] => [status, { result: 'error', message }];
    if (req.headers.authorization !== `Bearer ${this.token}`) return error(401, 'Unauthorized');
    if (this.outage) return error(this.outage, 'Supervisor is not ready');
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/discovery') {
      let body: { service?: unknown; config?: unknown };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return error(400, 'Invalid JSON');
      }
      if (typeof body.service !== 'string' || body.config === null || typeof body.config !== 'object' || Array.isArray(body.config))
        return error(400, 'Missing or invalid service or config');
      if (!this.declared.includes(body.service)) return error(403, 'Add-ons must list services they provide via discovery in their config!');
      const config = body.config as Record<string, unknown>;
      const existing = [...this.messages.values()].find((m) => m.service === body.service);
      const message = existing ?? { uuid: randomUUID().replace(/-/g, ''), service: body.service, config };
      message.config = config;
      this.messages.set(message.uuid, message);
      return [200, { result: 'ok', data: { uuid: message.uuid } }];
    }
    const uuid = /^\/discovery\/([^/]+)$/.exec(path)?.[1];
    if (req.method === 'DELETE' && uuid !== undefined) {
      if (!this.messages.delete(uuid)) return error(404, 'Discovery message not found');
      return [200, { result: 'ok', data: {} }];
    }
    return error(404, 'Not found');
  }
}
