// The portal's time, as each answer's Date header gives it. A small machine before its time sync, or one
// set an hour off, reads the portal with a clock of its own: the cookies the portal sets expire by the
// portal's clock (an Expires it wrote), so they are judged at the portal's moment, not this machine's.
// A difference over a minute is said once in the log (and again only once it is gone or has moved by
// more than a minute) and shown in the bridge's diagnostics as `clock_skew_s`.
import type { Logger } from '../util/log.js';

/** Under this the two clocks agree: the Date header counts whole seconds and an answer takes its time. */
const TOLERANCE_MS = 60_000;

export class PortalTime {
  /** This machine's clock minus the portal's at the last answer with a readable Date header. */
  private skewMs: number | undefined;
  /** The skew the log was last told of (undefined: the clocks agreed, or nothing was said yet). */
  private toldMs: number | undefined;

  constructor(private readonly log?: Logger) {}

  /**
   * The portal's moment of an answer that came at `hostNow` (this machine's clock): its Date header, or
   * `hostNow` when it has none that reads as a date.
   */
  answered(dateHeader: string | undefined, hostNow: number): Date {
    const portalNow = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
    if (Number.isNaN(portalNow)) return new Date(hostNow);
    this.skewMs = hostNow - portalNow;
    this.tell(this.skewMs);
    return new Date(portalNow);
  }

  /** Seconds this machine's clock is ahead of the portal's (negative: behind), when they differ by over a minute. */
  get skewSeconds(): number | undefined {
    return this.skewMs !== undefined && Math.abs(this.skewMs) > TOLERANCE_MS ? Math.round(this.skewMs / 1000) : undefined;
  }

  private tell(skewMs: number): void {
    if (Math.abs(skewMs) <= TOLERANCE_MS) {
      if (this.toldMs !== undefined) this.log?.info('this machine’s clock agrees with the portal’s again');
      this.toldMs = undefined;
      return;
    }
    if (this.toldMs !== undefined && Math.abs(skewMs - this.toldMs) <= TOLERANCE_MS) return;
    this.toldMs = skewMs;
    const seconds = Math.round(skewMs / 1000);
    this.log?.warn(
      { clock_skew_s: seconds },
      `this machine’s clock is ${describe(Math.abs(seconds))} ${seconds > 0 ? 'ahead of' : 'behind'} the portal’s; ` +
        'the bridge keeps the portal’s cookies by the portal’s time, but dates near midnight may be read a day off: set the clock (NTP)',
    );
  }
}

/** 75 -> "1 min 15 s", 3600 -> "60 min". */
function describe(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
