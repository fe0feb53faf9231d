// Each child's calendars and homework list in Home Assistant, and the Model Context Protocol entry through
// which Assist asks the register (16.4), made and kept by the running bridge through Home Assistant's API
// (interface 15.4). It watches what the accounts publish (the calendar feeds name the child and carry its
// homework), and after a pass that changed something looks: the entries (entries.ts, Assist's in
// assist-entry.ts), the calendars asked to read a changed feed again (read-again.ts), the homework lists
// (todo-lists.ts). What it made and what the family deleted go with the base topic (kept.ts). It never stands
// in the way of the rest: a refusal or an API that is away is a log line and a named reason in the diagnostics,
// tried again later; MQTT, the calendar feeds and the board go on.
import { createHash } from 'node:crypto';
import type { Sink } from '../../bus/bus.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import { declaresAgenda } from '../../features/calendar-feeds/calendar-feeds.js';
import type { HomeAssistantConfig } from '../../config/schema.js';
import type { Language } from '../../config/language.js';
import type { AgendaEntry, CalendarFeedContent, CalendarFeedName } from '../../rules/calendar-feeds.js';
import { HOMEASSISTANT_TEXT } from '../../i18n/homeassistant-text.js';
import { calendarFeedUrl, LiveToken, loadOrCreateToken } from '../web/token.js';
import { MINUTE } from '../../util/duration.js';
import { warsawDate } from '../../util/time.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { HomeAssistantApi, problemAfter } from './client.js';
import { familyNamed, wantedEntries, type Wanted } from './steps.js';
import { MadeFile, madeStatus, type HomeAssistantHandover } from './made.js';
import { LookLoop } from './look-loop.js';
import { Kept } from './kept.js';
import { Entries } from './entries.js';
import { assistWanted } from './assist-entry.js';
import { ReadAgain } from './read-again.js';
import { keepTodoLists } from './todo-lists.js';

export interface KeeperOptions {
  config: HomeAssistantConfig;
  dataDir: string;
  language: Language;
  clock: Clock;
  log: Logger;
  /** Whether the web server serves the calendar feeds now: a Remote Calendar's flow fetches its calendar feed to validate it. */
  calendarFeedsServed: () => boolean;
  /** The ids of the children the bridge reads as far as known; `complete` once every child is (nothing is removed before). */
  children: () => { ids: string[]; complete: boolean };
  /** What was made and what the family deleted, told on with the base topic (the MQTT sink); none: kept in data_dir alone. */
  handover?: HomeAssistantHandover;
}

/**
 * The first wait after a failure, doubled after each one in a row, up to the longest; after a lost answer
 * (Home Assistant answered other calls of the same look) a short wait, never doubled: it is there.
 */
const RETRY = { first: MINUTE, longest: 30 * MINUTE, lost: 15_000 };
export class HomeAssistantKeeper extends LookLoop implements Sink {
  private readonly kept: Kept;
  private readonly entries: Entries;
  private readonly readAgain: ReadAgain;
  /** Each child's first name and agenda entries, as its calendar feeds last carried them. */
  private readonly names = new Map<string, string>();
  private readonly agenda = new Map<string, readonly AgendaEntry[]>();
  /** Whether each child's device declares homework and an agenda (a kindergarten child's does not); nothing is made before it is known. */
  private readonly schoolwork = new Map<string, boolean>();
  private token: LiveToken | undefined;
  /** The first look at the entries, from which Assist's entry waits for the family's names (steps.ts, familyNamed). */
  private firstLook: number | undefined;
  /** Answers Home Assistant gave, and how many there were when the look under way began. */
  private answers = 0;
  private answersBefore = 0;
  private readonly calls = { day: '', today: 0 };

  constructor(private readonly options: KeeperOptions) {
    // One look at a time, tried again after a failure; its stop abandons the call in flight (interface 16.1).
    super({ clock: options.clock, backoff: RETRY });
    const api = new HomeAssistantApi({
      url: options.config.url,
      token: options.config.token ?? '',
      onCall: () => this.count(),
      signal: this.signal,
      onAnswer: () => this.answers++,
    });
    this.kept = new Kept(api, options.log, new MadeFile(options.dataDir), options.handover);
    this.entries = new Entries(this.kept);
    this.readAgain = new ReadAgain(this.kept);
  }

  /** A child's device as declared: whether it has homework and an agenda decides its list and agenda calendar. */
  device(child: ChildDevice): void {
    const schoolwork = declaresAgenda(child.entities);
    if (this.schoolwork.get(child.id) === schoolwork) return;
    this.schoolwork.set(child.id, schoolwork);
    this.nudge();
  }

  removed(childId: string): void {
    this.schoolwork.delete(childId);
  }

  /** A sink of the bus: every calendar feed a pass publishes names the child and carries its homework and agenda. */
  calendarFeed<K extends CalendarFeedName>(id: string, name: K, content: CalendarFeedContent<K>): void {
    this.names.set(id, content.child);
    if (name === 'agenda') this.agenda.set(id, content.entries as readonly AgendaEntry[]);
    const key = `${id}/${name}`;
    const hash = createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 16);
    if (this.kept.serving.get(key) === hash) return;
    this.kept.serving.set(key, hash);
    // A look after the calendar feeds the pass publishes together (they come in one go): not waiting for the pass's end,
    // which waits for the broker's acknowledgements.
    this.nudge();
  }

  /** A child's pass published everything: a look (the homework list, a child come or gone; a changed calendar feed was looked at already). */
  passed(): void {
    this.nudge();
  }

  /** After the web server started: what was made before is read back (or taken over), and the first look is made. */
  override async start(): Promise<void> {
    const { dataDir } = this.options;
    await this.kept.load();
    if (this.options.config.public_url !== undefined && this.options.calendarFeedsServed()) {
      this.token = await loadOrCreateToken(dataDir)
        .then(({ value }) => new LiveToken(dataDir, value))
        .catch(() => undefined);
    }
    await super.start();
  }

  /** The diagnostics' part: whether the API answers (or its fault, since when, the next try), the calls, what was made. */
  status(): Record<string, unknown> {
    return {
      ...madeStatus(this.kept.made),
      ...this.retryStatus(),
      calls_today: this.calls.day === warsawDate(this.options.clock.now()) ? this.calls.today : 0,
    };
  }

  private count(): void {
    const day = warsawDate(this.options.clock.now());
    if (day !== this.calls.day) Object.assign(this.calls, { day, today: 0 });
    this.calls.today++;
  }

  protected async look(): Promise<void> {
    this.answersBefore = this.answers;
    const children = this.options.children();
    await this.entries.keep(this.wanted(children), children);
    this.lookIn(await this.readAgain.ask(this.options.clock.now()));
    const { language, clock } = this.options;
    await keepTodoLists(this.kept, this.agenda, {
      ids: children.ids,
      fallback: HOMEASSISTANT_TEXT[language].homework,
      today: warsawDate(clock.now()),
    });
    await this.recovered();
  }

  /** The entries wanted: each named child's calendars and list (those its device declares), and Assist's. */
  private wanted(children: { ids: readonly string[]; complete: boolean }): Wanted[] {
    const named = children.ids.flatMap((id) => {
      const [name, schoolwork] = [this.names.get(id), this.schoolwork.get(id)];
      return name === undefined || schoolwork === undefined ? [] : [{ id, name, schoolwork }];
    });
    // Both fetch from the web server: a calendar its feed, Assist's entry the MCP server (its key the web token).
    const base = this.options.config.public_url;
    const token = this.options.calendarFeedsServed() ? this.token?.current() : undefined;
    const urls =
      base !== undefined && token !== undefined
        ? (child: string, calendarFeed: CalendarFeedName) => calendarFeedUrl(base, child, calendarFeed, token)
        : undefined;
    // Assist's entry waits until every child is named: Home Assistant lists the tools, which name them, as it sets it up.
    const family = familyNamed(children, named.length, this.options.clock.now() - (this.firstLook ??= this.options.clock.now()));
    return [...wantedEntries(named, this.options.language, urls), ...(family ? assistWanted(this.options.config, token) : [])];
  }

  private async recovered(): Promise<void> {
    if (this.kept.made.problem === undefined) return;
    this.options.log.info("Home Assistant's API answers again");
    delete this.kept.made.problem;
    await this.kept.save();
  }

  /** A log line when the fault is new, the reason kept for the diagnostics; a lost answer is tried again soon. */
  protected async failed(error: unknown, wait: number): Promise<number | undefined> {
    const { problem, fresh } = problemAfter(this.kept.made.problem, error, this.options.clock.now());
    // No answer to one call while others of the look were answered: that answer was lost, Home Assistant is there.
    const lost = problem.fault === 'unreachable' && this.answers > this.answersBefore;
    this.entries.lookAgain();
    if (fresh) {
      this.options.log.warn(
        { fault: problem.fault, err: problem.message, retry_in_minutes: (lost ? RETRY.lost : wait) / MINUTE },
        "Home Assistant's API failed: the calendars and homework lists wait",
      );
    }
    this.kept.made.problem = problem;
    await this.kept.save();
    return lost ? RETRY.lost : undefined;
  }
}
