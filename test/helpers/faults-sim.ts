// Faults the simulator has no switch for, added from the outside for the fault suite: an HTML page or a
// truncated JSON body instead of a resource, a TCP reset instead of an answer, and a record of every
// cookie value the simulated hosts ever issued, of every request as it arrives (before any injected
// latency, so a test can act while requests are in flight) and of the latency chosen for each. It wraps
// the simulator's own host handlers, request loops (over HTTP and in process) and latency rules (private
// members, reached by a cast): the simulator's code is not changed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matches } from '../../src/simulator/faults.js';
import type { PortalSimulator, RequestMatch } from '../../src/simulator/index.js';
import type { HostHandler, HostName, Reply } from '../../src/simulator/types.js';
import type { Hosts } from '../../src/simulator/hosts.js';
import type { Secret } from './faults.js';

export type BodyFault = 'html' | 'truncated';

interface Internals {
  faults: { latencyFor(target: { host: HostName; method: string; path: string }): number };
  hosts: {
    deps: { handlers: Record<HostName, HostHandler> };
    serve(host: HostName, req: IncomingMessage, res: ServerResponse): Promise<void>;
    exchange: Hosts['exchange'];
  };
}

interface Rule<K> {
  match: RequestMatch;
  left: number;
  kind: K;
}

const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html lang="pl"><head><meta charset="UTF-8"><title>Synergia</title></head>' +
  '<body><h1>Błąd serwera</h1><p>Spróbuj ponownie za chwilę.</p></body></html>\n';

export class SimTap {
  /** Every cookie value a simulated host set (name and host in the key, never printed with its value). */
  readonly issued = new Map<string, Secret>();
  /** Requests as they arrive: host, method, path. */
  readonly arrivals: { host: HostName; method: string; path: string }[] = [];
  /** The body of every request the hosts handled, as it arrived (a send's exact JSON). */
  readonly requestLog: { host: HostName; method: string; path: string; body: string }[] = [];
  /** Requests that arrived and have not been answered (or cut) yet. */
  inFlight = 0;
  /** The most requests in flight at once so far. */
  maxInFlight = 0;
  resetsDone = 0;
  /** The latency the simulator chose for each request (0: none), as it chose it, before answering. */
  readonly delays: { host: HostName; method: string; path: string; ms: number }[] = [];
  /** The last body each path answered with status 200 (host:path -> body). */
  private readonly bodies = new Map<string, string>();
  private bodyRules: Rule<BodyFault>[] = [];
  /** What every answer's body becomes (a portal whose words quote what it holds); unset, the simulator's own. */
  rewrite: ((body: string, target: { host: HostName; method: string; path: string }) => string) | undefined;
  private resetRules: Rule<'reset'>[] = [];

  constructor(sim: PortalSimulator) {
    const { hosts, faults } = sim as unknown as Internals;
    const latencyFor = faults.latencyFor.bind(faults);
    // Lets a test see that an injected latency really held a request, without timing it.
    faults.latencyFor = (target) => {
      const ms = latencyFor(target);
      this.delays.push({ host: target.host, method: target.method, path: target.path, ms });
      return ms;
    };
    const handlers = hosts.deps.handlers;
    for (const host of Object.keys(handlers) as HostName[]) {
      const inner = handlers[host];
      handlers[host] = {
        identify: (call) => inner.identify(call),
        handle: async (call) => {
          this.requestLog.push({ host, method: call.method, path: call.path, body: call.body });
          const rule = this.take(this.bodyRules, { host, method: call.method, path: call.path });
          if (rule === 'html') return { status: 200, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: LOGIN_PAGE };
          const answered = await inner.handle(call);
          const reply =
            this.rewrite && answered.body
              ? { ...answered, body: this.rewrite(answered.body, { host, method: call.method, path: call.path }) }
              : answered;
          this.remember(host, reply);
          if (reply.status === 200 && reply.body) this.bodies.set(`${host}:${call.path}`, reply.body);
          if (rule === 'truncated' && reply.body) return { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) };
          return reply;
        },
      };
    }
    const serve = hosts.serve.bind(hosts);
    hosts.serve = async (host, req, res) => {
      if (this.arrive(host, req.method ?? 'GET', req.url ?? '/') === 'reset') {
        // A TCP RST as a crashing front proxy sends it: the client sees ECONNRESET, no HTTP answer.
        req.socket.resetAndDestroy();
        return;
      }
      res.once('close', () => this.inFlight--);
      await serve(host, req, res);
    };
    // A bridge on sim.dispatcher() sends its requests here, without a socket: the same record, and a reset
    // fails the request as the in-process dispatcher fails one the simulator resets.
    const exchange = hosts.exchange.bind(hosts);
    hosts.exchange = async (host, request) => {
      if (this.arrive(host, request.method, request.path) === 'reset') {
        throw Object.assign(new Error('simulator: the connection was reset'), { code: 'ECONNRESET' });
      }
      try {
        return await exchange(host, request);
      } finally {
        this.inFlight--;
      }
    };
  }

  /** Records a request as it arrives; 'reset' when a reset rule takes it (it is then not in flight). */
  private arrive(host: HostName, rawMethod: string, url: string): 'reset' | undefined {
    const method = rawMethod.toUpperCase();
    const path = new URL(url, 'http://x.invalid').pathname;
    this.arrivals.push({ host, method, path });
    if (this.take(this.resetRules, { host, method, path }) === 'reset') {
      this.resetsDone++;
      return 'reset';
    }
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return undefined;
  }

  /** The next `count` matching requests get an HTML page (status 200) or half of their real body. */
  bodyFault(count: number, kind: BodyFault, match: RequestMatch): void {
    this.bodyRules.push({ match, left: count, kind });
  }

  /** The next `count` matching requests have their connection reset instead of an answer. */
  resetNext(count: number, match: RequestMatch): void {
    this.resetRules.push({ match, left: count, kind: 'reset' });
  }

  /** Drops every body fault and reset still pending. */
  clear(): void {
    this.bodyRules = [];
    this.resetRules = [];
  }

  /** The bodies of the requests that matched, in order. */
  requestBodies(match: RequestMatch): string[] {
    return this.requestLog.filter((r) => matches(match, r)).map((r) => r.body);
  }

  arrived(match: RequestMatch): number {
    return this.arrivals.filter((a) => matches(match, a)).length;
  }

  /** The JSON the portal host last served on a gateway endpoint (as the bridge saw it). */
  lastServed(endpoint: string): unknown {
    const body = this.bodies.get(`portal:/gateway/api/2.0/${endpoint}`);
    if (body === undefined) throw new Error(`nothing served on ${endpoint} yet`);
    return JSON.parse(body) as unknown;
  }

  secrets(): Secret[] {
    return [...this.issued.values()];
  }

  private take<K>(rules: Rule<K>[], target: { host: HostName; method: string; path: string }): K | undefined {
    const rule = rules.find((r) => r.left > 0 && matches(r.match, target));
    if (!rule) return undefined;
    rule.left--;
    return rule.kind;
  }

  private remember(host: HostName, reply: Reply): void {
    for (const line of reply.cookies ?? []) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value) this.issued.set(`${host}:${name}:${value}`, { name: `issued cookie ${name} (${host})`, value });
    }
  }
}

/** Drops every failure and latency set with failNext and setLatency (the simulator keeps them private). */
export function clearSimFaults(sim: PortalSimulator): void {
  (sim as unknown as { faults: { clear(): void } }).faults.clear();
}
