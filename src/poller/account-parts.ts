// The parts of an account runner, built in order, each from those before it: the child and its
// health, the event gate, the portal (its session, gateway and cache), the figures (which observe it),
// the features (given the portal, the outbox every send goes through, the child as the account knows it
// now and the account's settings) and the change feed. The runner (account.ts) adds the pass that ties
// them (coordinator.ts), the scheduler and the queue.
import { SessionStore } from '../store/session-store.js';
import { FiguresStore } from '../store/figures-store.js';
import { FeedDeviceStore } from '../store/feed-device-store.js';
import { FALLBACK_LANGUAGE } from '../config/language.js';
import { DEFAULT_GRADE_THRESHOLDS } from '../config/schema.js';
import { Outbox } from '../messaging/guard.js';
import { FEATURES } from '../features/index.js';
import { RESOURCES } from '../features/resources.js';
import { ChildFeed } from '../feed/child-feed.js';
import { hint } from '../util/text.js';
import { AccountFigures } from '../features/status/figures.js';
import { PortalAccess } from './portal-access.js';
import { AccountHealth } from './health.js';
import { EventGate } from './event-gate.js';
import { AccountChild } from './child.js';
import { AccountFeatures } from './account-features.js';
import { AccountPlan } from './account-plan.js';
import type { AccountPollerOptions } from './account-options.js';

export type AccountParts = ReturnType<typeof accountParts>;

export function accountParts(options: AccountPollerOptions) {
  const { account, dataDir, clock, hooks, resources = RESOURCES } = options;
  const language = options.language ?? FALLBACK_LANGUAGE;
  const log = options.log.child({ account: account.id ?? account.login });
  const family = options.family ?? options.alsoFamily;
  const child = new AccountChild({ account, dataDir, log, language, listedName: () => family?.studentName(account.login) });
  const health = new AccountHealth(language);
  const gate = new EventGate({
    dataDir,
    log,
    fire: (kind, payload) => options.publisher.publishEvent(child.id, kind, payload),
    onStorage: (error) => (health.storageError = error),
  });
  const access = new PortalAccess({
    ...options,
    log,
    store: new SessionStore(dataDir, account.login),
    policy: options.sessionPolicy,
    onRequest: hooks?.onRequest,
    resources,
    identity: () => child.identity,
  });
  const road = (): 'family' | 'register' => access.roads?.road ?? (options.family ? 'family' : 'register');
  // The figures show the portal's session and road, and hear of each of its answers and logins.
  const figures = new AccountFigures({
    clock,
    urls: options.urls,
    // Before the first identity a child without a configured id is named by its login: only a hint of it here.
    child: () => (account.id !== undefined || child.identity ? child.id : hint(account.login)),
    sessionSince: () => access.session.loggedInAt,
    road,
    sink: options.figuresSink,
    store: new FiguresStore(dataDir, account.login),
    log,
  });
  access.observe(figures);
  const { messages, cache } = access;
  const features = new AccountFeatures(
    options.features ?? FEATURES,
    {
      account,
      cache,
      messages,
      outbox: new Outbox({
        account: account.login,
        child: () => child.id,
        api: messages,
        dataDir,
        clock,
        log,
        messagesPerDay: options.messagesPerDay,
      }),
      downloads: () => access.downloads(child.id),
      identity: () => child.identity,
      childId: () => child.id,
      language,
      dataDir,
      thresholds: options.thresholds ?? DEFAULT_GRADE_THRESHOLDS,
      clock,
      log,
    },
    road,
  );
  const feed = new ChildFeed({
    gateway: access.gateway,
    store: new FeedDeviceStore(dataDir, account.login),
    road,
    resources,
    onMissed: (res) => figures.feedMissed(res.name),
    clock,
    log,
  });
  // The one planner, handed the child's facts; a command's lookup outside a pass asks it too.
  const planner = new AccountPlan({ cache, policy: options.poll, lessons: (now) => features.schoolDay(now), watch: () => feed.watch() });
  cache.plannedBy((w) => planner.when(w, clock.now()));
  return { log, child, health, gate, figures, access, features, feed, planner };
}
