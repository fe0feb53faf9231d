// A publisher that carries nothing anywhere, for a test where only what the bridge learns, keeps or
// writes matters; `overrides` keeps what a test watches (the children announced).
import type { Publisher } from '../../src/ha/publisher.js';

export type StartablePublisher = Publisher & { start(): Promise<void>; stop(): Promise<void> };

export function quietPublisher(overrides: Partial<StartablePublisher> = {}): StartablePublisher {
  return {
    setChild: () => undefined,
    removeChild: () => undefined,
    setAvailability: () => undefined,
    publishState: () => undefined,
    publishEvent: () => undefined,
    publishFeed: () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
    ...overrides,
  };
}
