// One pass of an account's tiers, as the scheduler (scheduler.ts) asks for it: the child's identity when
// stale, the features' poll at the plan's moment, what it found published (account-output.ts), and how
// long until the tier's copies are due again. The account runner (account.ts) owns the pieces.
import { warsawDate } from '../util/time.js';
import { nextMomentAt } from '../feature-kit/plan.js';
import { planClock } from './schedule.js';
import { tierDelay } from './wake.js';
import type { Identity } from '../feature-kit/identity.js';
import type { Tier } from '../feature-kit/source.js';
import type { Logger } from '../util/log.js';
import type { AccountPollerOptions } from './account-options.js';
import type { PortalAccess } from './portal-access.js';
import type { AccountChild } from './child.js';
import type { AccountFeatures } from './account-features.js';
import type { AccountOutput } from './account-output.js';
import type { AccountHealth } from './health.js';
import type { AccountFigures } from './figures.js';

export interface AccountPassDeps {
  options: AccountPollerOptions;
  log: Logger;
  access: PortalAccess;
  child: AccountChild;
  features: AccountFeatures;
  output: AccountOutput;
  health: AccountHealth;
  figures: AccountFigures;
  /** The scheduler's wake at the next lesson start or end. */
  scheduleBoundary: () => void;
  /** Keeps the figures in data_dir, in the background. */
  saveFigures: () => void;
}

export class AccountPasses {
  /** A poll of the normal tier has answered since the start (the rows kept for later are read from then on). */
  private normalPolled = false;

  constructor(private readonly deps: AccountPassDeps) {}

  /**
   * How long after a good pass the tier's features are due again: the fetch plan's answer, but never past poll.interval
   * while one of its sources failed, whose read is due again at the next look (a sent box read every
   * 8 hours, or a night's 2 hours, must not keep a problem that long).
   */
  interval(tier: Tier, now: number): number {
    const day = this.deps.features.schoolDay(now);
    const clock = planClock(now, this.deps.options.poll, day);
    // The soonest copy due, but never past the next change of moment (the first lesson is met on time
    // after a quiet night) nor six polls' worth of interval.
    return tierDelay({
      now,
      readBy: this.deps.features.readBy(tier, this.deps.access.cache, clock),
      nextMoment: nextMomentAt(now, day),
      normalMs: clock.intervals.normal,
      intervalMs: this.deps.options.poll.intervalMs,
      featureFailed: this.deps.health.tier(tier).feature !== undefined,
    });
  }

  /** One poll of the given tiers. Returns false when the account could not be polled at all. */
  async cycle(tiers: Tier[], forced: boolean): Promise<boolean> {
    const { clock } = this.deps.options;
    const started = clock.now();
    try {
      await this.ensureIdentity(started);
    } catch (error) {
      this.fail(tiers, error);
      return false;
    }
    const { cache } = this.deps.access;
    const { moment, intervals } = planClock(started, this.deps.options.poll, this.deps.features.schoolDay(started));
    // A refresh (or the bench's naive schedule) reads everything; a start's first pass leaves for later
    // what is not worth its requests (PlanRow.notAtStart; a feature whose rows all say so is kept for later) until a normal poll answered.
    const everything = forced || cache.naive;
    const startPass = !everything && !this.normalPolled && tiers.includes('normal');
    cache.at({ moment, intervals, refresh: forced, startPass, pass: true });
    const identity = this.deps.child.identity as Identity;
    const ctx = { downloads: this.deps.access.downloads(this.deps.child.id), cache, identity, log: this.deps.log };
    const outcome = await this.deps.features.poll(tiers, { ...ctx, now: started, today: warsawDate(started), forced: everything }, this.deps.log, startPass);
    // A command between polls reads at this moment, but is no refresh.
    cache.at({ moment, intervals, refresh: false });
    if (outcome.sessionError !== undefined) {
      this.fail(tiers, outcome.sessionError);
      return false;
    }
    // On the family road, a link the portal says needs action is a problem even while its token works.
    const link = await this.deps.options.family?.linkProblem(this.deps.options.account.login);
    if (link !== undefined) outcome.problem = { error: link, feature: 'family portal' };
    if (tiers.includes('normal')) this.normalPolled = true;
    const now = clock.now();
    this.deps.figures.passed(now - started);
    await this.deps.output.polled(tiers, outcome, now);
    this.deps.scheduleBoundary();
    // What the scheduler plans next, and why: the diagnostics say it (interface 10.1).
    const after = planClock(now, this.deps.options.poll, this.deps.features.schoolDay(now));
    this.deps.figures.nextReads = [...this.deps.features.nextReads(cache, after), this.deps.child.nextRead(after)].sort((a, b) => a.at - b.at);
    this.deps.log.info({ tiers, ms: now - started, entities: Object.keys(outcome.states).length }, 'poll done');
    await this.deps.access.session.persist().catch((error: Error) => this.deps.log.warn({ err: error.message }, 'could not save the session'));
    this.deps.saveFigures();
    return true;
  }

  /** The states that move with the clock, recomputed from memory (no portal request); false before the first identity. */
  restate(now: number): boolean {
    const identity = this.deps.child.identity;
    if (identity === undefined) return false;
    const { cache } = this.deps.access;
    this.deps.output.states(this.deps.features.restateBoundaries({ cache, identity, log: this.deps.log, now, today: warsawDate(now), forced: false }));
    return true;
  }

  private fail(tiers: Tier[], error: unknown): void {
    this.deps.log.warn({ err: error instanceof Error ? error.message : String(error), tiers }, 'poll failed');
    this.deps.output.failed(tiers, error, this.deps.options.clock.now());
    this.deps.saveFigures();
  }

  private async ensureIdentity(now: number): Promise<void> {
    if (!this.deps.child.due(planClock(now, this.deps.options.poll, this.deps.features.schoolDay(now)))) return;
    const before = this.deps.child.id;
    await this.deps.child.fetch(this.deps.access.gateway, now, (error) => (this.deps.health.storageError = error));
    if (before !== this.deps.child.id) await this.deps.output.renamed(before);
    this.deps.output.announce();
  }
}
