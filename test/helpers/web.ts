// Talking to the built-in web server in tests: raw requests (a path is sent exactly as written, no
// dot-segment clean-up as fetch would do) and a WebData held in the test's hand.
import type { Language } from '../../src/config/language.js';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { CalendarFeedName } from '../../src/rules/calendar-feeds.js';
import type { ChildView, CalendarFeedSource, WebData } from '../../src/outputs/web/types.js';
import type { EntityState } from '../../src/engine/state.js';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request to 127.0.0.1:port with the target as given. */
export function send(
  port: number,
  target: string,
  options: { method?: string; headers?: Record<string, string>; host?: string; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: options.host ?? '127.0.0.1', port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A WebData whose children and health the test sets. */
export class HandData implements WebData {
  language: Language = 'en';
  connected = true;
  clock = Date.parse('2026-11-23T08:00:00Z');
  readonly views = new Map<string, ChildView>();
  readonly calendarFeeds = new Map<string, CalendarFeedSource>();
  private readonly listeners = new Set<() => void>();

  setChild(id: string, states: Record<string, EntityState> = {}, online = true): void {
    this.views.set(id, { id, name: id, model: 'Klasa 4b', online, states: new Map(Object.entries(states)), changedAt: this.clock });
    for (const l of this.listeners) l();
  }

  children(): readonly ChildView[] {
    return [...this.views.values()];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  calendarFeedSource(child: string, name: CalendarFeedName): CalendarFeedSource | undefined {
    return this.calendarFeeds.get(`${child}/${name}`);
  }

  healthy(): boolean {
    return this.connected;
  }

  now(): number {
    return this.clock;
  }
}
