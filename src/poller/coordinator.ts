// One pass of an account, as its scheduler (scheduler.ts) asks for it: who the child is, then every
// copy its features read (their `reads`) that is due, read by the coordinator alone; then the features
// whose copies moved compute (feature-runs.ts), and what they found is published. When the next pass
// is due is the soonest `by` of what the features read (plan.ts, next; cache.ts): nextWake.
import { UnexpectedResponseError } from '../portal/errors.js';
import { nextMomentAt } from '../feature-kit/plan.js';
import { want, type Host, type Want } from '../feature-kit/resource.js';
import { IDENTITY } from '../resources/school.js';
import { warsawDate } from '../util/time.js';
import { planClock } from './schedule.js';
import type { CopyWatch, NextRead, ResourceCache } from '../feature-kit/cache.js';
import type { Identity } from '../feature-kit/identity.js';
import type { Logger } from '../util/log.js';
import type { AccountPollerOptions } from './account-options.js';
import type { PortalAccess } from './portal-access.js';
import type { AccountChild } from './child.js';
import type { AccountFeatures } from './account-features.js';
import type { AccountOutput } from './account-output.js';
import type { AccountHealth } from './health.js';
import type { AccountFigures } from './figures.js';
import { planFacts } from '../features/timetable-kindergarten.js';
import { KINDERGARTEN_SEARCH } from '../resources/kindergarten.js';
import type { FeedStatus } from '../feed/child-feed.js';
import type { HandledFacts } from '../feed/acknowledge.js';
import { errorText } from '../util/text.js';

const MINUTE = 60_000;
/** Reads that a read makes known (the calendar's id, then its ids, then the lists they vouch for) take a round each. */
const ROUNDS = 8;

/**
 * A plug-in of the pass (the child's change feed): what it wants read, what it does before the reads,
 * after each round of them, and after the pass was published.
 */
export interface PassPlugin {
  want(): Want | undefined;
  /** What it makes of the copies now (the lists it vouches for read for their age alone at its safety age). */
  watch(): CopyWatch | undefined;
  beforeReads(cache: ResourceCache): Promise<void>;
  afterRound(cache: ResourceCache): Promise<void>;
  /** After the pass was published: `pass` says what was computed from which copy and whether the broker took it all. */
  afterPublish(cache: ResourceCache, wanted: readonly Want[], pass: Pick<HandledFacts, 'computed' | 'delivered'>): Promise<void>;
  feedStatus(): FeedStatus;
}

export interface CoordinatorDeps {
  options: AccountPollerOptions;
  /** The child's change feed: a signal for what it names, read with the rest. */
  feed: PassPlugin;
  log: Logger;
  access: PortalAccess;
  child: AccountChild;
  features: AccountFeatures;
  output: AccountOutput;
  health: AccountHealth;
  figures: AccountFigures;
  /** Keeps the figures in data_dir, in the background. */
  saveFigures: () => void;
}

/** What a pass did: the hosts it read, those it could not (and why), and whether the child could be read at all. */
export interface PassOutcome {
  ok: boolean;
  read: Host[];
  failed: Map<Host, unknown>;
}

export class AccountCoordinator {
  /** A pass has read the register since the start: what a start leaves for later is read from then on. */
  private registerRead = false;

  constructor(private readonly deps: CoordinatorDeps) {}

  /** One pass; `waiting`: hosts whose last failure's backoff has not ended (nothing of theirs is read). */
  async pass(asked: boolean, waiting: ReadonlySet<Host>): Promise<PassOutcome> {
    const { access, features, options, log } = this.deps;
    const { cache } = access;
    const started = options.clock.now();
    const { moment, intervals } = planClock(started, options.poll, features.schoolDay(started));
    const startPass = !asked && !this.registerRead;
    const failed = new Map<Host, unknown>();
    const feed = this.deps.feed;
    cache.begin({ moment, intervals, asked, startPass, watch: feed.watch() });
    try {
      const identity = await this.identity(waiting).catch((error: unknown) => {
        failed.set('register', error);
        return undefined;
      });
      if (identity === undefined) return this.failedAll(failed.get('register') ?? new Error('the child is not known yet'));
      const ctx = { identity, today: warsawDate(started), account: options.account };
      const unread = new Set([...waiting, ...failed.keys()]);
      // The feed's steps are the register's: none while it is not read.
      const feedStep = (step: () => Promise<void>) => (unread.has('register') ? Promise.resolve() : hostStep('register', unread, failed, step));
      // Watch, then list: the feed's device before the lists it covers (a start's first pass included).
      await feedStep(() => feed.beforeReads(cache));
      // The feed leads its pass (Resource.leads): the lists its changes name are read in the rounds after.
      const read = await readDue(
        cache,
        () => this.withFeed(features.wants(ctx)),
        unread,
        failed,
        () => feedStep(() => feed.afterRound(cache)),
      );
      const downloads = access.downloads(this.deps.child.id);
      const outcome = await features.compute(
        cache,
        { identity, now: started, today: ctx.today, asked, log, ...(downloads ? { downloads } : {}) },
        ctx,
        log,
        unread,
        startPass,
      );
      if (outcome.sessionError !== undefined) return this.failedAll(outcome.sessionError);
      // On the family road, a link the portal says needs action is a problem even while its token works.
      const link = await options.family?.linkProblem(options.account.login);
      if (link !== undefined) outcome.problem = { error: link, feature: 'family portal' };
      if (read.includes('register')) this.registerRead = true;
      const now = options.clock.now();
      this.deps.figures.passed(now - started);
      for (const [host, error] of failed) this.fail([host], error);
      await this.deps.output.polled(read, outcome, now);
      // After the pass was published: what the feed named is acknowledged once handled (feed/acknowledge.ts; the others come back).
      const handled = { computed: (w: Want) => features.computedFrom(w), delivered: () => this.deps.output.delivered() };
      await feed.afterPublish(cache, features.wants(ctx), handled);
      this.deps.figures.feed = feed.feedStatus();
      this.deps.figures.nextReads = this.nextReads(now);
      this.deps.figures.plan = planFacts(cache.peek(KINDERGARTEN_SEARCH));
      log.info({ read, ms: now - started, entities: Object.keys(outcome.states).length }, 'poll done');
      await access.session.persist().catch((error: Error) => log.warn({ err: error.message }, 'could not save the session'));
      this.deps.saveFigures();
      return { ok: true, read, failed };
    } finally {
      cache.end(feed.watch());
    }
  }

  /**
   * When the next pass is due, judged at `now`: the soonest readBy of what the features read (and the
   * child's identity), never past the next change of moment (the first lesson after a quiet night) nor
   * six `interval`s. A copy due later is met on time, however soon (the feed's 5 minutes are a promise,
   * not rounded to a minute); one due now that the pass just done did not read (its host waiting, its
   * read failed) waits a minute. A host waiting out a failure's backoff is due at `retryAt`.
   */
  nextWake(now: number, retryAt: ReadonlyMap<Host, number>): number {
    const { cache } = this.deps.access;
    const day = this.deps.features.schoolDay(now);
    const clock = planClock(now, this.deps.options.poll, day);
    let soonest = Math.min(nextMomentAt(now, day), now + 6 * clock.intervals.normal);
    for (const w of this.wanted(now, !this.registerRead)) {
      // What a start left for later, and a copy wanted ahead of need, ride along with the next pass
      // rather than making one of their own.
      if ((w.res.notAtStart || w.ahead) && cache.readAt(w.res, w.key) === undefined) continue;
      const retry = retryAt.get(w.res.host);
      const by = retry !== undefined && retry > now ? retry : cache.when(w, clock).by;
      soonest = Math.min(soonest, by > now ? by : now + MINUTE);
    }
    return soonest;
  }

  /** The reads planned next, soonest first, and why then (the diagnostics' next reads). */
  nextReads(now: number): NextRead[] {
    const clock = planClock(now, this.deps.options.poll, this.deps.features.schoolDay(now));
    return this.deps.access.cache.nextReads(this.wanted(now), clock);
  }

  /** What the features read now, who the child is and the change feed; while the next pass is still a start's, without what waits for the one after. */
  private wanted(now: number, startPass = false): Want[] {
    const identity = this.deps.child.identity;
    if (identity === undefined) return [want(IDENTITY)];
    const wants = this.deps.features.wants({ identity, today: warsawDate(now), account: this.deps.options.account });
    return [want(IDENTITY), ...this.withFeed(wants.filter((w) => !(startPass && w.res.notAtStart)))];
  }

  /** What the features read, and the change feed while the child has a device. */
  private withFeed(wants: readonly Want[]): Want[] {
    const feed = this.deps.feed.want();
    return feed === undefined ? [...wants] : [...wants, feed];
  }

  /** The child, read first when its copy is due (every feature reads by it); undefined before the first. */
  private async identity(waiting: ReadonlySet<Host>): Promise<Identity | undefined> {
    const { cache } = this.deps.access;
    const { child, output, health } = this.deps;
    const w = want(IDENTITY);
    if (waiting.has('register') || !cache.due(w)) return child.identity;
    await cache.read(w);
    const before = child.id;
    await child.learned(cache.get(IDENTITY) as Identity, (error) => (health.storageError = error));
    if (before !== child.id) await output.renamed(before);
    output.announce();
    return child.identity;
  }

  private failedAll(error: unknown): PassOutcome {
    const hosts: Host[] = ['register', 'messaging'];
    this.fail(hosts, error);
    this.deps.saveFigures();
    return { ok: false, read: [], failed: new Map(hosts.map((h) => [h, error])) };
  }

  private fail(hosts: Host[], error: unknown): void {
    this.deps.log.warn({ err: errorText(error), hosts }, 'poll failed');
    this.deps.output.failed(hosts, error, this.deps.options.clock.now());
  }
}

/**
 * Reads what is due among `wants`, round after round: a read can make another known (a lookup that
 * lacks an id, the next step of a chain) or move a signal. A copy that leads (the change feed) has a
 * round of its own first; then in a round the copies that are signals (no vouch of their own) go first. A failure that is not one resource's (a dead session, the portal down)
 * stops its host's reads for this pass (`failed`). Answers the hosts read without such a failure.
 */
export async function readDue(
  cache: ResourceCache,
  wants: () => readonly Want[],
  waiting: Set<Host>,
  failed: Map<Host, unknown>,
  afterRound?: () => Promise<void>,
): Promise<Host[]> {
  const read = new Set<Host>();
  for (let round = 0; round < ROUNDS; round++) {
    const due = wants().filter((w) => !waiting.has(w.res.host) && cache.due(w));
    if (due.length === 0) break;
    const leads = due.filter((w) => w.res.leads === true);
    const signals = due.filter((w) => w.res.vouch === undefined);
    const batch = leads.length > 0 ? leads : signals.length > 0 ? signals : due;
    const readOne = async (w: Want): Promise<void> => {
      if (waiting.has(w.res.host)) return;
      read.add(w.res.host);
      await hostStep(w.res.host, waiting, failed, () => cache.read(w).catch(ownFailure));
    };
    // The register's copies at once; the messaging host's one after another, so that a messaging
    // session that expired costs one bootstrap and one request again, not one for each read in flight.
    const messaging = batch.filter((w) => w.res.host === 'messaging');
    await Promise.all([
      ...batch.filter((w) => w.res.host !== 'messaging').map(readOne),
      messaging.reduce((before, w) => before.then(() => readOne(w)), Promise.resolve()),
    ]);
    await afterRound?.();
  }
  return [...read].filter((host) => !failed.has(host));
}

/** One resource's failure (an unexpected answer) is its copy's, kept by the cache: the pass goes on. */
function ownFailure(error: unknown): void {
  if (!(error instanceof UnexpectedResponseError)) throw error;
}

/** A step of the pass on one host: a failure that is not one resource's stops the host's reads for this pass. */
async function hostStep(host: Host, waiting: Set<Host>, failed: Map<Host, unknown>, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    failed.set(host, error);
    waiting.add(host);
  }
}
