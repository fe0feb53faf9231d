// The five HTTP servers, one per loopback address so that cookies stay apart as on the real hosts
// (cookies ignore ports). Every request goes through one loop: read the body, identify the login,
// apply injected latency and failures, hand it to the host's handler, log it.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseCookieHeader, withExpires } from './cookies.js';
import { faultReply } from './faults.js';
import type { Faults, HugeAnswer } from './faults.js';
import { HOST_NAMES } from './types.js';
import type { Call, HostHandler, HostName, Reply, SimRequest, SimUrls } from './types.js';

const ADDRESSES: Record<HostName, string> = {
  portal: '127.0.0.1',
  auth: '127.0.0.2',
  messages: '127.0.0.3',
  sandbox: '127.0.0.4',
  family: '127.0.0.5',
};

/** Bodies larger than this are cut off: nothing the portal accepts is anywhere near it. */
const MAX_BODY = 1_000_000;

/** What a host does with a request: answers it, streams a huge answer, or resets the connection (faults.ts). */
type Outcome =
  | { reply: Reply; login: string | undefined }
  | { huge: HugeAnswer; login: string | undefined }
  | { reset: true; login: string | undefined };

/** A reply as a server writes it: the status, every header by its lower-case name, the body. */
export interface Written {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export interface HostsDeps {
  handlers: Record<HostName, HostHandler>;
  faults: Faults;
  log: SimRequest[];
  now: () => number;
}

export class Hosts {
  private servers = new Map<HostName, Server>();
  private sockets = new Set<Socket>();
  private timers = new Set<NodeJS.Timeout>();
  private bound: SimUrls | undefined;

  constructor(private readonly deps: HostsDeps) {}

  get urls(): SimUrls | undefined {
    return this.bound;
  }

  async start(port: number): Promise<SimUrls> {
    const found: Partial<Record<HostName, string>> = {};
    try {
      for (const host of HOST_NAMES) found[host] = await this.listen(host, port);
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.bound = {
      base_url: found.portal ?? '',
      auth_url: found.auth ?? '',
      messages_url: found.messages ?? '',
      sandbox_url: found.sandbox ?? '',
      family_url: found.family ?? '',
    };
    return this.bound;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const closing = [...this.servers.values()].map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.servers.clear();
    this.bound = undefined;
    await Promise.all(closing);
  }

  private listen(host: HostName, port: number): Promise<string> {
    const server = createServer((req, res) => void this.serve(host, req, res));
    server.keepAliveTimeout = 5_000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.servers.set(host, server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, ADDRESSES[host], () => {
        const address = server.address() as AddressInfo;
        resolve(`http://${ADDRESSES[host]}:${address.port}`);
      });
    });
  }

  private async serve(host: HostName, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call = callOf(host, req.method, req.url, req.headers, this.deps.now());
    // The portal's own time (a clock apart from the bridge's when a test gives the simulator one), not node's.
    res.setHeader('Date', new Date(call.at).toUTCString());
    const read = readBody(req).then(
      (body) => void (call.body = body),
      (error: unknown) => error,
    );
    const failed = await read;
    const outcome: Outcome = failed === undefined ? await this.answer(call) : { reply: simulatorError(failed), login: undefined };
    if ('huge' in outcome) {
      // Logged with the bytes really written: how much the client read before it hung up.
      this.logged(call, 200, await writeHuge(res, outcome.huge), outcome.login);
      return;
    }
    if ('reset' in outcome) {
      // Status 0: the connection is reset before any answer (a proxy dropping it).
      this.logged(call, 0, 0, outcome.login);
      res.socket?.destroy();
      return;
    }
    if (res.destroyed) return;
    this.logged(call, outcome.reply.status, Buffer.byteLength(outcome.reply.body ?? ''), outcome.reply.login ?? outcome.login, true);
    write(res, outcome.reply, call.at);
  }

  /**
   * A request answered in process, without a socket (`PortalSimulator.dispatcher`): what the host's server would
   * write, its Date, Set-Cookie and Content-Length headers included, and logged as that server logs it. A reset
   * connection throws; a huge answer (faults.ts) needs the socket it streams to.
   */
  async exchange(host: HostName, request: { method: string; path: string; headers: IncomingHttpHeaders; body: string }): Promise<Written> {
    const call = callOf(host, request.method, request.path, request.headers, this.deps.now());
    call.body = request.body;
    const outcome = await this.answer(call);
    if ('huge' in outcome) throw new Error('simulator: a huge answer is written to a socket; serve it over HTTP');
    if ('reset' in outcome) {
      this.logged(call, 0, 0, outcome.login);
      throw Object.assign(new Error('simulator: the connection was reset'), { code: 'ECONNRESET' });
    }
    const { reply } = outcome;
    this.logged(call, reply.status, Buffer.byteLength(reply.body ?? ''), reply.login ?? outcome.login, true);
    return written(reply, call.at);
  }

  /** What the host answers a call whose body is read: its handler's reply, or the fault injected for it. */
  private async answer(call: Call): Promise<Outcome> {
    let login: string | undefined;
    try {
      const handler = this.deps.handlers[call.host];
      login = handler.identify(call);
      const target = { host: call.host, method: call.method, path: call.path, login };
      await this.delay(this.deps.faults.latencyFor(target));
      const huge = this.deps.faults.takeHuge(target);
      if (huge) return { huge, login };
      const failure = this.deps.faults.takeFailure(target);
      if (failure === 0) return { reset: true, login };
      let reply = failure === undefined ? await handler.handle(call) : (handler.fault?.(call, failure) ?? faultReply(failure));
      // The demo prints these addresses: opened in a browser, a host says what it is rather than 404.
      if (reply.status === 404 && call.method === 'GET' && call.path === '/') reply = rootPage(call.host);
      return { reply, login };
    } catch (error) {
      return { reply: simulatorError(error), login };
    }
  }

  /** Keeps a request in the log, with what was answered (`bytes` written) and the login behind it when known. */
  private logged(call: Call, status: number, bytes: number, login: string | undefined, answered = false): void {
    const entry: SimRequest = { host: call.host, method: call.method, path: call.path, query: call.rawQuery, status, at: call.at, bytes };
    const site = call.headers['sec-fetch-site'];
    if (answered && typeof site === 'string') entry.fetchSite = site;
    if (login !== undefined) entry.login = login;
    this.deps.log.push(entry);
  }

  private delay(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

/** What each simulated host stands for, as its root page tells a person who opens it. */
const HOST_ROLES: Record<HostName, string> = {
  portal: 'the register (synergia.librus.pl): its API the bridge reads, /gateway/api/2.0/',
  auth: 'the login (api.librus.pl): where the bridge logs in with a register login',
  messages: 'the messages (wiadomosci.librus.pl): read and sent by the bridge',
  sandbox: "file hand-off host (sandbox.librus.pl): where the register hands over homework files and the school's files",
  family: 'the family portal (portal.librus.pl, Konto LIBRUS): the e-mail login and its linked children',
};

/** A small page for a browser at a host's root: which part of the portal this host plays, for the demo. */
function rootPage(host: HostName): Reply {
  const text = `dziennik2mqtt demo: the simulated ${HOST_ROLES[host]}. It answers the bridge, not a browser; the demo's family board is at the address the demo printed.`;
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>dziennik2mqtt demo: ${host}</title></head>\n<body><p>${text}</p></body></html>\n`,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Piece of a huge answer: a JSON array item of exactly 64 KB with its comma. */
const HUGE_PIECE = `{"Id":0,"Filler":"${'x'.repeat(64 * 1024 - 21)}"},`;

/**
 * Writes {"Items":[piece,piece,...,{}]} of about `bytes` bytes, waiting for the client to drain each
 * piece, so the simulator holds one piece however large the answer; stops when the client goes.
 */
async function writeHuge(res: ServerResponse, huge: HugeAnswer): Promise<number> {
  const head = '{"Items":[';
  const tail = '{}]}';
  const pieces = Math.max(0, Math.floor((huge.bytes - head.length - tail.length) / HUGE_PIECE.length));
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (huge.announceLength) res.setHeader('Content-Length', head.length + pieces * HUGE_PIECE.length + tail.length);
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  res.write(head);
  let written = head.length;
  for (let i = 0; i < pieces && !res.destroyed; i++) {
    written += HUGE_PIECE.length;
    if (!res.write(HUGE_PIECE)) await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
  }
  if (res.destroyed) return written;
  res.end(tail);
  return written + tail.length;
}

/** What a server writes for a reply: its headers (Set-Cookie with an Expires from `at`, the body's length) and body. */
function written(reply: Reply, at: number): Written {
  const body = reply.body ?? '';
  const headers: Written['headers'] = { date: new Date(at).toUTCString() };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  if (reply.cookies?.length) headers['set-cookie'] = reply.cookies.map((cookie) => withExpires(cookie, at));
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status: reply.status, headers, body };
}

function write(res: ServerResponse, reply: Reply, at: number): void {
  const { status, headers, body } = written(reply, at);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}

/** A request as the hosts' handlers take it, its body still to be read. */
function callOf(host: HostName, method: string | undefined, path: string | undefined, headers: IncomingHttpHeaders, at: number): Call {
  const url = new URL(path ?? '/', 'http://simulator.invalid');
  return {
    host,
    method: (method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    rawQuery: url.search.replace(/^\?/, ''),
    headers,
    cookies: parseCookieHeader(headers.cookie),
    body: '',
    at,
  };
}

const simulatorError = (error: unknown): Reply => ({
  status: 500,
  headers: { 'Content-Type': 'text/plain' },
  body: `simulator error: ${String(error)}`,
});
