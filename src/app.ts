// The running bridge: one MQTT bridge, one poller per account, and the commands that connect them.
// Built by main.ts (and by the demo and the tests) from a validated config.
import { Bridge } from './mqtt/bridge.js';
import { registerBridgeRequests } from './mqtt/bridge-requests.js';
import { CommandError, type CommandRequest } from './mqtt/commands.js';
import { AccountPoller, type CycleInfo, type PortalAccess, type Publisher } from './poller/account.js';
import { MessagesSource } from './poller/sources/messages.js';
import { FixedMessageSender } from './messaging/sender.js';
import { LuckySource } from './poller/sources/lucky.js';
import { NoticesSource } from './poller/sources/notices.js';
import { TimetableSource } from './poller/sources/timetable.js';
import { GradesSource } from './poller/sources/grades.js';
import { AttendanceSource } from './poller/sources/attendance.js';
import { AgendaSource } from './poller/sources/agenda.js';
import { NotesSource } from './poller/sources/notes.js';
import { LibrarySource } from './poller/sources/library.js';
import { formatDuration } from './util/duration.js';
import { DownloadSlots } from './portal/download-limits.js';
import { systemClock, type Clock } from './util/clock.js';
import type { Config } from './config/schema.js';
import type { ReconnectPolicy } from './mqtt/client.js';
import type { Logger } from './util/log.js';
import type { SessionPolicy } from './portal/session.js';
import type { Source } from './poller/source.js';
import type { Dispatcher } from 'undici';

export interface AppOptions {
  config: Config;
  version: string;
  log: Logger;
  clock?: Clock;
  dispatcher?: Dispatcher;
  sessionPolicy?: SessionPolicy;
  /** Replaces the MQTT bridge (tests that only look at what would be published). */
  publisher?: Publisher & { start(): Promise<void>; stop(): Promise<void> };
  /** Delay between the start of one account's polling and the next (default 5 s). */
  staggerMs?: number;
  /** Fetch everything on every poll (only for the benchmark's comparison). */
  naive?: boolean;
  onCycle?: (childIndex: number, cycle: CycleInfo) => void;
  /** Reconnect delays to the broker (default 5 s doubling to 60 s); tests shorten them. */
  reconnect?: ReconnectPolicy;
}

export class App {
  readonly pollers: AccountPoller[] = [];
  private readonly senders = new Map<AccountPoller, FixedMessageSender>();
  private readonly options: AppOptions;
  private bridge: Bridge | undefined;
  /** At most two downloads at once for the whole process (spec 8). */
  private readonly slots = new DownloadSlots();

  constructor(options: AppOptions) {
    this.options = options;
  }

  async start(): Promise<void> {
    const { config, log, version } = this.options;
    const clock = this.options.clock ?? systemClock;
    const bridge =
      this.options.publisher ??
      new Bridge({
        mqtt: config.mqtt,
        version,
        log: log.child({ part: 'mqtt' }),
        info: () => this.info(),
        children: config.accounts.flatMap((a) => (a.id ? [a.id] : [])),
        language: config.language,
        reconnectPeriodMs: this.options.reconnect?.firstMs,
        reconnectMaxMs: this.options.reconnect?.maxMs,
      });
    if (bridge instanceof Bridge) this.bridge = bridge;
    config.accounts.forEach((account, index) => {
      this.pollers.push(
        new AccountPoller({
          account,
          urls: config.portal,
          dataDir: config.data_dir,
          poll: { intervalMs: config.poll.interval, fastIntervalMs: config.poll.fast_interval, quietHours: config.poll.quiet_hours },
          clock,
          log,
          publisher: bridge,
          sources: createSources,
          dispatcher: this.options.dispatcher,
          sessionPolicy: this.options.sessionPolicy,
          startDelayMs: index * (this.options.staggerMs ?? 5_000),
          slots: this.slots,
          language: config.language,
          naive: this.options.naive,
          onCycle: (cycle) => {
            // bridge/info names the children and their modules, which a poll may just have learned.
            this.bridge?.publishInfo();
            this.options.onCycle?.(index, cycle);
          },
        }),
      );
    });
    for (const poller of this.pollers) {
      await poller.prepare();
      const account = config.accounts[this.pollers.indexOf(poller)];
      if (!account || account.messages.length === 0) continue;
      const sender = new FixedMessageSender({
        account: account.login,
        messages: account.messages,
        api: poller.messages,
        gateway: poller.gateway,
        identity: () => poller.child,
        dataDir: config.data_dir,
        clock,
        log: log.child({ account: account.id ?? account.login }),
      });
      await sender.start();
      this.senders.set(poller, sender);
    }
    if (this.bridge) {
      this.registerCommands(this.bridge);
      registerBridgeRequests(this.bridge, { pollers: this.pollers, log, onLevelChange: () => this.bridge?.publishInfo() });
    }
    await bridge.start();
    for (const poller of this.pollers) poller.start();
    log.info(
      { children: this.pollers.map((p) => p.id), interval: formatDuration(config.poll.interval), fast: formatDuration(config.poll.fast_interval) },
      'dziennik2mqtt started',
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.pollers.map((p) => p.stop()));
    await (this.bridge ?? this.options.publisher)?.stop();
  }

  poller(childId: string): AccountPoller | undefined {
    return this.pollers.find((p) => p.id === childId);
  }

  /** bridge/info: what runs and how, without any secret. */
  info(): Record<string, unknown> {
    const { config, version } = this.options;
    return {
      version,
      // The bridge device's log level select shows this.
      log_level: this.options.log.level,
      children: this.pollers.map((p) => ({
        id: p.id,
        name: p.child ? `${p.child.firstName} ${p.child.lastName}`.trim() : null,
        class: p.child?.className ?? null,
        school: p.child?.schoolName ?? null,
        fixed_messages: config.accounts.find((a) => a.login === p.loginName)?.messages.map((m) => m.id) ?? [],
        messages_module: p.source<MessagesSource>('messages')?.moduleAvailable ?? null,
      })),
      config: {
        base_topic: config.mqtt.base_topic,
        discovery_prefix: config.mqtt.discovery_prefix,
        portal: config.portal.base_url,
        poll_interval: formatDuration(config.poll.interval),
        fast_interval: formatDuration(config.poll.fast_interval),
        quiet_hours: config.poll.quiet_hours ?? null,
      },
    };
  }

  private registerCommands(bridge: Bridge): void {
    bridge.onCommand('refresh', async (req) => {
      await this.pollerFor(req).refresh();
      return {};
    });
    bridge.onCommand('mark_notices_read', (req) => this.markNoticesRead(req));
    bridge.onCommand('send_message', async (req) => {
      const sender = this.senders.get(this.pollerFor(req));
      if (!sender) throw new CommandError('no fixed messages are configured for this child');
      return { ...(await sender.send(req.arg, req.transaction)) };
    });
  }

  private async markNoticesRead(req: CommandRequest): Promise<Record<string, unknown>> {
    const poller = this.pollerFor(req);
    const source = poller.source<NoticesSource>('notices');
    if (!source) throw new CommandError('announcements are not available');
    const wanted = req.arg.trim();
    // Ids are only ever taken from what the portal gave; a payload that cannot be one is refused
    // before any request.
    if (wanted !== 'all' && !/^[A-Za-z0-9_-]{1,128}$/.test(wanted)) {
      throw new CommandError('send "all" or one announcement id');
    }
    return poller.enqueue(async () => {
      const notices = await source.known(poller.gateway);
      const ids = wanted === 'all' ? notices.filter((n) => !n.WasRead).map((n) => n.Id) : notices.filter((n) => n.Id === wanted).map((n) => n.Id);
      if (wanted !== 'all' && ids.length === 0) throw new CommandError('unknown announcement id (send "all" or an id from newest_notice/unread_notices)');
      const marked = await source.markRead(poller.gateway, ids);
      poller.publishStates(source.states());
      return { marked, already_read: ids.length - marked };
    });
  }

  private pollerFor(req: CommandRequest): AccountPoller {
    const poller = this.poller(req.child);
    if (!poller) throw new CommandError(`unknown child "${req.child}"`);
    return poller;
  }
}

/**
 * The sources every account polls, in the order they run within a poll: the timetable before the
 * agenda, which needs the next school day.
 */
export function createSources(access: PortalAccess): Source[] {
  return [
    new LuckySource(),
    new MessagesSource({ api: access.messages }),
    new NoticesSource(),
    new TimetableSource(),
    new GradesSource(),
    new AttendanceSource(),
    new AgendaSource(),
    new NotesSource(),
    new LibrarySource(),
  ];
}
