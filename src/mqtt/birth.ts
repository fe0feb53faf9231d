// Home Assistant's birth message: a live "online" on its status topic means it started again and lost
// what it was told, so everything retained is sent again after a short delay (a second birth restarts it).
import type { IPublishPacket } from 'mqtt';
import type { Clock, Timer } from '../util/clock.js';
import { MAX_STATUS_BYTES } from './sizes.js';

export class BirthWatch {
  private timer: Timer | undefined;

  constructor(private readonly options: { clock: Clock; delayMs: number; onBirth: () => void }) {}

  /**
   * A message on Home Assistant's status topic. A retained "online" is an old birth, not Home Assistant
   * starting now; anything longer than a status is not decoded at all (any client of the broker may publish here).
   */
  status(payload: Buffer, packet: IPublishPacket): void {
    if (packet.retain || payload.length > MAX_STATUS_BYTES || payload.toString('utf8').trim() !== 'online') return;
    this.timer?.cancel();
    this.timer = this.options.clock.setTimer(() => {
      this.timer = undefined;
      this.options.onBirth();
    }, this.options.delayMs);
  }

  /** No republish after a stop. */
  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
