// The account runner: one child's passes when the scheduler says (scheduler.ts, one timer; a pass, and
// what it found published, in coordinator.ts; its parts built in order in account-parts.ts), and one
// queue so that commands never run during a pass. Every account has its own runner, so a failing or
// slow account never stalls another.
import type { AccountFigures } from '../features/status/figures.js';
import type { AccountHealth } from './health.js';
import type { AccountFeatures } from './account-features.js';
import { AccountScheduler } from './scheduler.js';
import { SchedulerView } from './scheduled-child.js';
import type { Resource } from '../feature-kit/resource.js';
import type { Identity } from '../feature-kit/identity.js';
import type { CommandAccount } from '../features/feature.js';
import type { CommandRequest } from '../feature-kit/commands.js';
import type { EntityState } from '../feature-kit/state.js';
import type { Gateway } from '../portal/gateway.js';
import { SerialQueue } from '../util/serial.js';
import { IDENTITY } from '../resources/school.js';
import { RefreshGate } from './refresh-gate.js';
import { accountParts, type AccountParts } from './account-parts.js';
import { AccountCoordinator } from './coordinator.js';

export type { AccountPollerOptions, PollHooks } from './account-options.js';
import type { AccountPollerOptions } from './account-options.js';
import type { ResourceCache } from '../feature-kit/cache.js';

export class AccountPoller implements CommandAccount {
  readonly gateway: Gateway;
  readonly cache: ResourceCache;
  readonly health: AccountHealth;
  readonly features: AccountFeatures;
  /** The account's figures for the diagnostics and its diagnostic entities. */
  readonly figures: AccountFigures;
  /** The child, its event gate, the change feed (account-parts.ts). */
  private readonly parts: AccountParts;
  /** The pass, and what it publishes. */
  private readonly coordinator: AccountCoordinator;
  private readonly scheduler: AccountScheduler;
  private readonly queue = new SerialQueue();
  private readonly refreshes: RefreshGate;

  constructor(private readonly options: AccountPollerOptions) {
    this.parts = accountParts(options);
    const { access, health, features, figures, log } = this.parts;
    this.coordinator = new AccountCoordinator(options, this.parts);
    this.gateway = access.gateway;
    this.cache = access.cache;
    this.health = health;
    this.features = features;
    this.figures = figures;
    this.scheduler = new AccountScheduler({
      ...options,
      log,
      enqueue: (work) => this.queue.enqueue(work),
      child: new SchedulerView(this.coordinator, features, health, options.poll.intervalMs),
    });
    this.refreshes = new RefreshGate({ clock: options.clock, poll: (began) => this.passNow(true, began) });
  }

  get id(): string {
    return this.parts.child.id;
  }

  /** The child's identity, once known. */
  get child(): Identity | undefined {
    return this.parts.child.identity;
  }

  get loginName(): string {
    return this.options.account.login;
  }

  publishStates(states: Record<string, EntityState>): void {
    this.coordinator.states(states);
  }

  /** Restores what the last run saved and announces a child it has read before (before the bridge connects). */
  async prepare(): Promise<void> {
    const { log, feed, child, gate } = this.parts;
    await this.parts.access.session.restore();
    await this.figures.restore((error) => log.warn({ err: error.message }, "diagnostics figures unreadable; the day's counts start afresh"));
    await feed.load();
    // A last success "in the future" (saved under a clock that ran ahead) counts as now: the child stays
    // available at most OFFLINE_AFTER_MS without a good poll, not until the clock catches up.
    const restored = await child.restore();
    this.health.restoredSuccessAt = restored === undefined ? undefined : Math.min(restored, this.options.clock.now());
    // The identity the last run read is the copy, as old as it is.
    if (child.identity !== undefined && restored !== undefined) this.cache.seed(IDENTITY, child.identity, restored);
    await gate.load(child.id);
    // The features first: what they restore includes entities that follow the data (per subject).
    await this.features.prepare();
    // A child an earlier run has read is announced as it was then (a kindergarten child without what the
    // portal refuses her); one new to the bridge once its first pass has told what its account can fill.
    if (child.identity !== undefined) this.coordinator.announce();
    // The feeds the last run served stand until the first read replaces them: never an empty calendar.
    this.coordinator.feeds(this.features.restoredFeeds());
  }

  start(): void {
    this.scheduler.start(this.options.startDelayMs ?? 0);
  }

  async stop(): Promise<void> {
    this.scheduler.stop();
    this.refreshes.cancel();
    await this.queue.idle();
    const { log, gate } = this.parts;
    await this.parts.access.session.persist().catch((error: Error) => log.warn({ err: error.message }, 'could not save the session'));
    await gate.save();
    await this.figures.save();
    await this.features.saved();
  }

  /** A pass a person asked for now (the refresh command), or when a minute has passed since the last one began; resolves when done. */
  refresh(): Promise<void> {
    return this.refreshes.request();
  }

  /** A pass after the command running now (in the queue: it runs once the command is done): it reads what the command moved. */
  readAgain(moved: Resource): void {
    this.cache.moved(moved);
    void this.passNow(false);
  }

  /** A pass outside the timer, in the queue (a refresh, a command's read again): the scheduler plans the next one anew. */
  private passNow(asked: boolean, began?: () => void): Promise<void> {
    return this.queue.enqueue(async () => {
      began?.();
      this.scheduler.passed(await this.coordinator.pass(asked, new Set()));
    });
  }

  /** Resolves when the account has nothing running (the simulated day waits for it). */
  async idle(): Promise<void> {
    await this.queue.idle();
    // The figures' and the kept states' last writes too: they run beside the queue, not in it.
    await Promise.all([this.figures.written, this.features.saved()]);
  }

  /** Runs a command of the child's features: in the account's queue, never during a poll (a refresh only waits for one). */
  command(request: CommandRequest): Promise<Record<string, unknown>> {
    return this.features.command(request, this, (work) => this.queue.enqueue(work));
  }
}
