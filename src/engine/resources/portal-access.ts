// One account's way into the portal: its session, the gateway and the messaging host over it, the
// resource cache, and (downloads on) a downloader per child. `run`, `check` and the tests build it alike.
import { Gateway } from '../../portal/gateway.js';
import type { FamilyAccount } from '../../portal/family.js';
import { PortalSession, type PortalSessionOptions } from '../../portal/session.js';
import { TwoRoads } from '../../portal/roads.js';
import { MessagingClient } from '../../portal/messaging.js';
import { MessagesApi } from '../../portal/messaging-api.js';
import { Downloader, DEFAULT_DOWNLOAD_LIMITS, type DownloadSlots } from '../../portal/attachments/downloader.js';
import { ResourceCache } from '../cache.js';
import { TOKEN_INFO } from './grades.js';
import type { Identity } from '../identity.js';
import type { Resource } from '../resource.js';
import { tokenInfoResponse } from '../../portal/schemas/identity.js';
import { BackgroundFiles, type Downloads } from '../../portal/attachments/background.js';
import { HeavyAnswers } from '../../portal/heavy-answers.js';
import { maskedEndpoint, maskedMessagingPath, type PortalObserver } from '../../portal/observer.js';
import type { AccountConfig } from '../../config/schema.js';

/** The session's options (without a `store`, as `check` builds it, the session is kept nowhere), and the account's. */
export interface PortalAccessOptions
  extends Pick<PortalSessionOptions, 'urls' | 'clock' | 'log' | 'store' | 'dispatcher' | 'portalTime' | 'policy' | 'timeoutMs'> {
  account: AccountConfig;
  /** Told of every request, as "METHOD endpoint" with ids masked (an observer's counter). */
  onRequest?: (key: string) => void;
  /** The declarations the copies are read by (PassRunnerOptions.resources). */
  resources?: readonly Resource[];
  /** The child as last read (the reads that name it: the recipient list's class tutor). */
  identity?: () => Identity | undefined;
  /** For downloads: data_dir and the process-wide slots (no downloads without both). */
  dataDir?: string;
  slots?: DownloadSlots;
  /** The largest file a download saves, in bytes (the limits' default when not given). */
  downloadMaxBytes?: number;
  /**
   * The family road (live-notes 21-27): the child's data by bearer token through this family account,
   * its web session (messages, downloads) opened with a one-time token. Without it, the register road.
   */
  familyRoad?: FamilyAccount;
  /**
   * A register child that an `email` entry lists too: the family account whose road reads it while its
   * register login fails for any reason but a wrong password (roads.ts).
   */
  alsoFamilyRoad?: FamilyAccount;
}

export class PortalAccess {
  readonly session: PortalSession;
  readonly gateway: Gateway;
  readonly messaging: MessagingClient;
  readonly messages: MessagesApi;
  readonly cache: ResourceCache;
  /** Both roads for this child (`alsoFamily`): which one reads it now. */
  readonly roads: TwoRoads | undefined;
  /** Whoever `observe` added (the diagnostics' figures, built from the access after it) hears what the portal did. */
  private observer: PortalObserver | undefined;
  private readonly observers: PortalObserver = {
    answered: (resource, status) => this.observer?.answered(resource, status),
    login: () => this.observer?.login() ?? { exchange: () => undefined, ended: () => undefined },
    bootstrapped: () => this.observer?.bootstrapped(),
  };
  private downloadState: (Downloads & { child: string }) | undefined;

  constructor(private readonly options: PortalAccessOptions) {
    const { account, urls, clock, log, onRequest, familyRoad, alsoFamilyRoad, timeoutMs } = options;
    const label = account.id ?? account.login;
    const password = account.password ?? '';
    const roads = alsoFamilyRoad && new TwoRoads({ familyRoad: alsoFamilyRoad, login: account.login, password, urls, account: label, clock, log });
    this.roads = roads;
    this.session = new PortalSession({
      ...options,
      account: label,
      login: account.login,
      password,
      // On the family road too this is the register's own web session (the token login opens one, live-notes
      // 26): it ages and dies as spec 5.3 says, so it is refreshed and opened again on the register's policy.
      // Untimed, nothing saw it die: the data go by bearer token, and /wiadomosci3 answers a dead session's
      // "Brak dostępu", which reads as a school without messages, from the first day's end until a restart.
      policy: options.policy,
      signIn: roads?.signIn ?? familyRoad?.webSignIn(account.login),
      road: roads,
      observer: this.observers,
    });
    this.gateway = new Gateway({
      session: this.session,
      road: roads?.dataRoad(this.session) ?? familyRoad?.dataRoad(account.login, this.session.http, log),
      urls,
      account: label,
      onRequest: onRequest && ((method, endpoint) => onRequest(`${method} ${maskedEndpoint(endpoint)}`)),
      observer: this.observers,
      heavy: options.dataDir === undefined ? undefined : heavyAnswers(options.dataDir, options, label),
    });
    this.messaging = new MessagingClient({
      session: this.session,
      urls,
      account: label,
      clock,
      log,
      timeoutMs,
      onRequest: onRequest && ((method, path) => onRequest(`${method} ${maskedMessagingPath(path)}`)),
      observer: this.observers,
    });
    this.messages = new MessagesApi(this.messaging, label);
    this.cache = new ResourceCache({
      portal: { gateway: this.gateway, messages: this.messages, identity: options.identity ?? (() => undefined), clock, log },
      resources: options.resources,
    });
    // A login proves its session with Auth/TokenInfo (live-notes 20): that answer is the copy, read now.
    this.session.onLogin((proof) => {
      const parsed = tokenInfoResponse.safeParse(proof);
      if (parsed.success) this.cache.seed(TOKEN_INFO, parsed.data, clock.now());
    });
  }

  /** Tells `observer` of every answer, login and messaging bootstrap from now on. */
  observe(observer: PortalObserver): void {
    this.observer = observer;
  }

  /** The account's downloader (downloads on only), made for the given child id. */
  downloads(child: string): Downloads | undefined {
    const { account, slots, dataDir, urls, clock, log, downloadMaxBytes } = this.options;
    if (!account.downloads || !slots || dataDir === undefined) return undefined;
    if (this.downloadState?.child === child) return this.downloadState;
    const limits = { ...DEFAULT_DOWNLOAD_LIMITS, maxFileBytes: downloadMaxBytes ?? DEFAULT_DOWNLOAD_LIMITS.maxFileBytes };
    const downloader = new Downloader({
      session: this.session,
      urls,
      account: account.id ?? account.login,
      child,
      dataDir,
      clock,
      log,
      slots,
      limits,
    });
    // The files already saved stay known when the child id changes.
    this.downloadState = { child, files: this.downloadState?.files ?? new BackgroundFiles(log), downloader };
    return this.downloadState;
  }
}

/** The answers that broke a pass of the last run, kept in data_dir: not asked again before their time. */
function heavyAnswers(dataDir: string, { account, clock, log }: PortalAccessOptions, label: string): HeavyAnswers {
  return new HeavyAnswers({
    dataDir,
    login: account.login,
    now: () => clock.now(),
    onHeld: (endpoint, entry, until) =>
      log.warn(
        { account: label, resource: endpoint, reason: entry.reason, at: new Date(entry.at).toISOString(), until: new Date(until).toISOString() },
        'an answer of this resource broke a pass of the last run; not asked again before the time given',
      ),
    onBroken: (error) => log.warn({ err: error.message }, 'the record of answers that broke a pass is unreadable; starting a new one'),
  });
}
