// Drives a fake clock for code that both waits on it and talks HTTP. Time moves a second at a time, but
// only while none of the watched clients has a request in flight: on a slow machine a request must
// not look as if seconds of the code's own time had passed (a deadline would then fire early or late).
import type { HttpClient } from '../../src/portal/http.js';
import type { FakeClock } from './clock.js';

const realDelay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class ClockDriver {
  private inFlight = 0;
  /** The clock's waiting timers when the last answer came, and when (real time). */
  private answered = { timers: 0, at: 0 };

  constructor(private readonly clock: FakeClock) {}

  /** Counts the client's requests from sending until their answer is read. */
  watch(http: HttpClient): void {
    const send = http.send.bind(http);
    http.send = async (req) => {
      this.inFlight++;
      try {
        return await send(req);
      } finally {
        this.inFlight--;
        this.answered = { timers: this.clock.timerCount, at: Date.now() };
      }
    };
  }

  /**
   * The code may still be handling the last answer (parsing it, writing a file): time moves only once
   * it waits on the clock again (a timer more than when the answer came), or after 50 ms of real time
   * for code that waits on a timer it had set before. On a loaded machine, moving on at once let the
   * clock run seconds past a deadline before the code saw it.
   */
  private handlingAnswer(): boolean {
    return this.clock.timerCount <= this.answered.timers && Date.now() - this.answered.at < 50;
  }

  /** Moves the clock a second at a time between requests until p settles (at most maxSeconds). */
  async drive<T>(p: Promise<T>, maxSeconds = 400): Promise<T> {
    let done = false;
    p.then(
      () => (done = true),
      () => (done = true),
    );
    for (let seconds = 0; seconds < maxSeconds && !done; ) {
      if (this.inFlight > 0 || this.handlingAnswer()) {
        await realDelay(2);
        continue;
      }
      await this.clock.advance(1_000);
      seconds++;
      await realDelay(3);
    }
    return p;
  }
}
