// The web server's place in the running bridge (App): the memory the pollers publish through, with
// each child's calendar feeds, and the server itself. App loads this module only when http.port is
// not 0, so a bridge without the web server never loads it (nor the iCalendar library).
import { WebMemory } from './memory.js';
import { WebService, type WebServiceOptions } from './service.js';
import { calendarFeed } from './feeds.js';
import type { CalendarFeedsState } from '../features/calendar-feeds.js';
import type { Publisher } from '../ha/publisher.js';
import type { Language } from '../config/language.js';

export interface MemoryWiring {
  target: Publisher;
  language: Language;
  healthy: () => boolean;
  now: () => number;
  /** The calendar feeds of a child's account; undefined for an unknown child or an account without them. */
  feedsOf: (child: string) => CalendarFeedsState | undefined;
}

export function createMemory(wiring: MemoryWiring): WebMemory {
  return new WebMemory({
    target: wiring.target,
    language: wiring.language,
    healthy: wiring.healthy,
    now: wiring.now,
    feeds: (child, name) => calendarFeed(wiring.feedsOf(child), name, wiring.language),
  });
}

export function createService(options: WebServiceOptions): WebService {
  return new WebService(options);
}
