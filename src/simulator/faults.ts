// Fault injection and request matching: "the next N matching requests fail with status S" and
// "matching requests take M ms longer", the tools tests use to play maintenance windows and slowness.
import { html, json } from './reply.js';
import type { HostName, Reply, RequestMatch } from './types.js';

export interface MatchTarget {
  host: HostName;
  method: string;
  path: string;
  login?: string | undefined;
}

export function matches(match: RequestMatch | undefined, r: MatchTarget): boolean {
  if (!match) return true;
  if (match.host !== undefined && match.host !== r.host) return false;
  if (match.method !== undefined && match.method.toUpperCase() !== r.method) return false;
  if (match.login !== undefined && match.login !== r.login) return false;
  if (match.path !== undefined) {
    if (typeof match.path === 'string' ? match.path !== r.path : !match.path.test(r.path)) return false;
  }
  return true;
}

function matchKey(match: RequestMatch | undefined): string {
  if (!match) return '*';
  const path = match.path instanceof RegExp ? `re:${match.path.source}/${match.path.flags}` : match.path;
  return JSON.stringify([match.host, match.method?.toUpperCase(), path, match.login]);
}

interface FailRule {
  left: number;
  status: number;
  match: RequestMatch | undefined;
  /** A window's rule: it answers every matching request until this time of the simulator's clock. */
  until?: number;
}

interface LatencyRule {
  ms: number;
  match: RequestMatch | undefined;
  key: string;
}

/** A huge answer instead of the real one: `bytes` of JSON, streamed, with or without a Content-Length. */
export interface HugeAnswer {
  bytes: number;
  announceLength: boolean;
}

interface HugeRule extends HugeAnswer {
  left: number;
  match: RequestMatch | undefined;
}

export class Faults {
  constructor(private readonly now: () => number = Date.now) {}

  private failures: FailRule[] = [];
  private latencies: LatencyRule[] = [];
  private huge: HugeRule[] = [];

  failNext(count: number, status: number, match?: RequestMatch): void {
    if (count > 0) this.failures.push({ left: count, status, match });
  }

  /** Adds or replaces the delay for a match; 0 removes it, and 0 without a match removes every delay. */
  setLatency(ms: number, match?: RequestMatch): void {
    const key = matchKey(match);
    if (ms <= 0 && !match) this.latencies = [];
    this.latencies = this.latencies.filter((l) => l.key !== key);
    if (ms > 0) this.latencies.push({ ms, match, key });
  }

  /** Every matching request answers `status` for the next `ms` of the simulator's clock. */
  failFor(ms: number, status: number, match?: RequestMatch): void {
    if (ms > 0) this.failures.push({ left: Infinity, status, match, until: this.now() + ms });
  }

  /** Consumes one failure that matches the request and returns its status (rules in order of creation). */
  takeFailure(target: MatchTarget): number | undefined {
    const now = this.now();
    this.failures = this.failures.filter((f) => f.left > 0 && (f.until === undefined || f.until > now));
    const rule = this.failures.find((f) => matches(f.match, target));
    if (!rule) return undefined;
    rule.left--;
    return rule.status;
  }

  hugeNext(count: number, answer: HugeAnswer, match?: RequestMatch): void {
    if (count > 0) this.huge.push({ left: count, match, ...answer });
  }

  /** Consumes one huge-answer rule that matches the request. */
  takeHuge(target: MatchTarget): HugeAnswer | undefined {
    const rule = this.huge.find((h) => h.left > 0 && matches(h.match, target));
    if (!rule) return undefined;
    rule.left--;
    this.huge = this.huge.filter((h) => h.left > 0);
    return { bytes: rule.bytes, announceLength: rule.announceLength };
  }

  /** The delay for a request: the latest matching rule wins. */
  latencyFor(target: MatchTarget): number {
    for (let i = this.latencies.length - 1; i >= 0; i--) {
      const rule = this.latencies[i];
      if (rule && matches(rule.match, target)) return rule.ms;
    }
    return 0;
  }

  clear(): void {
    this.failures = [];
    this.latencies = [];
    this.huge = [];
  }
}

const MAINTENANCE =
  '<!DOCTYPE html>\n<html lang="pl"><head><meta charset="UTF-8"><title>Przerwa techniczna</title></head>\n' +
  '<body><h1>Przerwa techniczna</h1><p>Trwają prace serwisowe. Zapraszamy ponownie za kilka minut.</p></body></html>\n';

/**
 * What an injected failure looks like: 503 is the daily maintenance page (HTML, as a front proxy
 * would answer), 200 the same page from a proxy that does not say so in its status, 500 an empty HTML
 * body (as OneRoster answers), 429 a short JSON with Retry-After, anything else an empty body.
 */
export function faultReply(status: number): Reply {
  if (status === 503) return html(503, MAINTENANCE, { headers: { 'Retry-After': '120' } });
  if (status === 200) return html(200, MAINTENANCE);
  if (status === 500) return html(500, '');
  if (status === 429) {
    return json(
      429,
      { Status: 'Error', Code: 'TooManyRequests', Message: 'Too many requests' },
      {
        headers: { 'Retry-After': '60' },
      },
    );
  }
  return { status, body: '' };
}
