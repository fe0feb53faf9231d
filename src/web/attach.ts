// The web server's place in the running bridge (App): the memory the pollers publish through (states
// and calendar feeds alike), and the server itself. App loads this module only when http.port is
// not 0, so a bridge without the web server never loads it (nor the iCalendar library).
import { WebMemory } from './memory.js';
import { WebService, type WebServiceOptions } from './service.js';
import type { Publisher } from '../ha/publisher.js';
import type { Language } from '../config/language.js';

export interface MemoryWiring {
  target: Publisher;
  language: Language;
  healthy: () => boolean;
  now: () => number;
}

export function createMemory(wiring: MemoryWiring): WebMemory {
  return new WebMemory({
    target: wiring.target,
    language: wiring.language,
    healthy: wiring.healthy,
    now: wiring.now,
  });
}

export function createService(options: WebServiceOptions): WebService {
  return new WebService(options);
}
