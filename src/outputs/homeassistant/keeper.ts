// Each child's calendars and homework list in Home Assistant, and the Model Context Protocol entry through
// which Assist asks the register (16.4), made and kept by the running bridge through Home Assistant's API
// (interface 15.4). It watches what the accounts publish (the calendar feeds name the
// child and carry its homework), and after a pass that changed something it makes what is missing,
// makes again what points at an old address, removes what a removed child had and brings each homework
// list in step. What it made and what the family deleted go with the base topic, not the installation:
// told on retained by the holder, taken over by its successor (16.3), so every entry stays the bridge's and
// none the family deleted is made again. It never stands in the way of the rest: a
// refusal or an API that is away is a log line and a named reason in the diagnostics, tried again later;
// MQTT, the calendar feeds and the board go on.
import { createHash } from 'node:crypto';
import type { Sink } from '../../bus/bus.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import { declaresAgenda } from '../../features/calendar-feeds/calendar-feeds.js';
import type { HomeAssistantConfig } from '../../config/schema.js';
import type { Language } from '../../config/language.js';
import type { AgendaEntry, CalendarFeedContent, CalendarFeedName } from '../../rules/calendar-feeds.js';
import { HOMEASSISTANT_TEXT } from '../../i18n/homeassistant-text.js';
import { calendarFeedUrl, LiveToken, loadOrCreateToken, mcpUrl } from '../web/token.js';
import { MINUTE } from '../../util/duration.js';
import { warsawDate } from '../../util/time.js';
import { errorText } from '../../util/text.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { HomeAssistantApi, problemAfter, HomeAssistantError, type FlowOutcome, type HaItem } from './client.js';
import { assistEntry, childOfKey, familyNamed, keptUrl, MCP, reconcile, REMOTE_CALENDAR, wantedEntries, type Wanted } from './steps.js';
import { homeworkItems, needsLook, todoSteps, type Written } from './homework.js';
import { MadeFile, madeStatus, takenOver, toldOn, type Known, type Made, type ToldEntries } from './made.js';
import { LookLoop } from './look-loop.js';

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

/** The base topic's side of what was made and deleted (mqtt/told.ts): told on by its holder, read by its successor. */
export interface HomeAssistantHandover {
  /** After a handover from another installation: what it told (undefined when nothing); undefined when this bridge held the base topic last. */
  homeAssistantTold(): { told: unknown } | undefined;
  /** What was made and deleted now, told on for a successor; undefined when nothing. */
  tellHomeAssistant(told: ToldEntries | undefined): void;
}

/**
 * The first wait after a failure, doubled after each one in a row, up to the longest; after a lost answer
 * (Home Assistant answered other calls of the same look) a short wait, never doubled: it is there.
 */
const RETRY = { first: MINUTE, longest: 30 * MINUTE, lost: 15_000 };
/** A calendar is asked to read its calendar feed again at most this often (Remote Calendar reads it once a day itself). */
const READ_AGAIN = 5 * MINUTE;

export class HomeAssistantKeeper extends LookLoop implements Sink {
  private readonly api: HomeAssistantApi;
  private readonly file: MadeFile;
  private made: Made = { entries: {}, homework: {} };
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
  /** The entries are looked at again: at start, after a failure, when what is wanted changed. */
  private lookedFor: string | undefined;
  private readonly calls = { day: '', today: 0 };
  /** What each calendar feed (`child/feed`) holds now, as a hash of the content the last pass published. */
  private readonly serving = new Map<string, string>();
  /** When each calendar was last asked to read its calendar feed again (this run), and the timer of the next ask. */
  private readonly askedAt = new Map<string, number>();

  constructor(private readonly options: KeeperOptions) {
    // One look at a time, tried again after a failure; its stop abandons the call in flight (interface 16.1).
    super({ clock: options.clock, backoff: RETRY });
    this.api = new HomeAssistantApi({
      url: options.config.url,
      token: options.config.token ?? '',
      onCall: () => this.count(),
      signal: this.signal,
      onAnswer: () => this.answers++,
    });
    this.file = new MadeFile(options.dataDir);
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
    if (this.serving.get(key) === hash) return;
    this.serving.set(key, hash);
    // A look after the calendar feeds the pass publishes together (they come in one go): not waiting for the pass's end,
    // which waits for the broker's acknowledgements.
    this.nudge();
  }

  /** A child's pass published everything: a look (the homework list, a child come or gone; a changed calendar feed was looked at already). */
  passed(): void {
    this.nudge();
  }

  /** After the web server started: what was made before is read back, and the first look is made. */
  override async start(): Promise<void> {
    const { log, dataDir } = this.options;
    this.made = await this.file.load((error) => log.warn({ err: error.message }, 'what was made in Home Assistant could not be read back'));
    const told = this.options.handover?.homeAssistantTold();
    if (told !== undefined) {
      const unreadable = () =>
        log.warn('what the bridge before this one told of its entries in Home Assistant is unreadable: they are found again by name');
      this.made = takenOver(this.made, told.told, unreadable);
      const deleted = Object.values(this.made.entries).flatMap((known) => (known.gone ? [known.title] : []));
      log.info(
        { deleted },
        "the base topic was another installation's since: its entries in Home Assistant taken as this bridge's, what the family deleted left deleted",
      );
      await this.save();
    } else this.options.handover?.tellHomeAssistant(toldOn(this.made));
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
      ...madeStatus(this.made),
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
    await this.keepEntries();
    await this.readAgain();
    await this.keepHomework();
    await this.recovered();
  }

  /** The entries: made when missing, made again at a new address, the family's deletions remembered, a removed child's removed. */
  private async keepEntries(): Promise<void> {
    const { ids, complete } = this.options.children();
    const named = ids.flatMap((id) => {
      const [name, schoolwork] = [this.names.get(id), this.schoolwork.get(id)];
      return name === undefined || schoolwork === undefined ? [] : [{ id, name, schoolwork }];
    });
    const token = this.token?.current();
    const base = this.options.config.public_url;
    const urls =
      base !== undefined && token !== undefined && this.options.calendarFeedsServed()
        ? (child: string, calendarFeed: CalendarFeedName) => calendarFeedUrl(base, child, calendarFeed, token)
        : undefined;
    const wanted = wantedEntries(named, this.options.language, urls);
    // Assist's entry: the MCP server at the address Home Assistant reaches the bridge by, its key the web token.
    const family = familyNamed({ ids, complete }, named.length, this.options.clock.now() - (this.firstLook ??= this.options.clock.now()));
    if (this.options.config.assist && base !== undefined && token !== undefined && this.options.calendarFeedsServed() && family)
      wanted.push(assistEntry(mcpUrl(base, token)));
    // Home Assistant is asked only when something may have to be done: an entry wanted anew, a child gone.
    const leaving =
      complete &&
      Object.keys(this.made.entries).some((key) => {
        const child = childOfKey(key);
        return child !== undefined && !ids.includes(child);
      });
    const sought = JSON.stringify([wanted, complete && ids]);
    if (sought === this.lookedFor || (wanted.length === 0 && !leaving)) return;
    await this.abortOrphans();
    const present = new Set((await this.api.entries()).map((e) => e.entry_id));
    const steps = reconcile(wanted, this.made.entries, present, complete ? ids : undefined);
    let first: unknown;
    for (const step of steps) {
      try {
        if (step.do === 'gone') {
          this.remember(step.key, { ...(this.made.entries[step.key] as Known), gone: true });
          this.options.log.info({ key: step.key }, 'removed from Home Assistant by the family: not made again');
        } else if (step.do === 'remove') {
          if (step.known.by === 'bridge' && !step.known.gone && step.known.entry !== null) await this.api.deleteEntry(step.known.entry);
          this.remember(step.key, undefined);
          this.options.log.info({ title: step.known.title }, 'its child is no longer read: removed from Home Assistant');
        } else if (step.want.domain === MCP) {
          // Its flow aborts on the address alone, so the new entry is made before the old one goes: a lost answer
          // in between leaves the old one known and still there, never an entry taken for deleted by the family.
          await this.make(step.want, false, step.do === 'remake' ? step.known : undefined);
        } else {
          if (step.do === 'remake' && step.known.entry !== null) {
            await this.api.deleteEntry(step.known.entry);
            // Deleted by the bridge: a lost answer to the flow that follows must not find it missing and take it for the family's deletion.
            this.remember(step.want.key, undefined);
            await this.save();
          }
          await this.make(step.want);
        }
      } catch (error) {
        // A flow one entry fails (its calendar feed not served yet) leaves the others to be made; an API that is away fails them all.
        if (error instanceof HomeAssistantError && error.fault !== 'refused' && error.fault !== 'server_error') throw error;
        first ??= error;
      }
      await this.save();
    }
    if (first !== undefined) throw first;
    this.lookedFor = sought;
  }

  /** The flows a lost answer left in progress, aborted (one that finished meanwhile is already gone). */
  private async abortOrphans(): Promise<void> {
    for (const [key, flow] of Object.entries(this.made.flows ?? {})) {
      if (await this.api.abortFlow(flow)) this.options.log.info({ key }, 'a flow whose answer was lost: aborted in Home Assistant');
      delete this.made.flows?.[key];
      await this.save();
    }
  }

  /** One flow of an entry, its id kept until its step answered (a lost answer leaves it for abortOrphans). */
  private async flow(want: Wanted): Promise<FlowOutcome> {
    const input =
      want.domain === REMOTE_CALENDAR
        ? { calendar_name: want.title, url: want.url }
        : want.domain === MCP
          ? { url: want.url }
          : { todo_list_name: want.title };
    let flow: string | undefined;
    const outcome = await this.api.makeEntry(want.domain, input, async (id) => {
      flow = id;
      this.made.flows = { ...this.made.flows, [want.key]: id };
      await this.save();
    });
    // A step answered with the form again (its calendar feed could not be read) leaves the flow open: ended here.
    if ('errors' in outcome && flow !== undefined) await this.api.abortFlow(flow);
    delete this.made.flows?.[want.key];
    return outcome;
  }

  /**
   * One entry made through its integration's flow. One already there under its name is the bridge's whoever
   * made it (this bridge before a lost answer, a predecessor on the base topic, the family by hand): a list
   * is taken as it is; a calendar, whose address Home Assistant does not show, is made again at the
   * calendar feed's address and key. A calendar whose address alone is taken (named otherwise by the family) is
   * theirs. The MCP entry's flow aborts when an entry has its very address (this server, this key): that one is
   * the bridge's, whoever made it; `replaces`, the MCP entry it was before (an old key, a predecessor's address),
   * is deleted once the new one stands.
   */
  private async make(want: Wanted, again = false, replaces?: Known): Promise<void> {
    const outcome = await this.flow(want);
    const url = keptUrl(want);
    if ('made' in outcome) {
      // Its flow has just read the calendar feed: what it serves now is what Home Assistant holds.
      const read = this.serving.get(want.key);
      // Home Assistant titles an MCP entry by the server's name; the bridge keeps the title it was given.
      const title = want.domain === MCP ? outcome.made.title : want.title;
      this.remember(want.key, {
        entry: outcome.made.entry_id,
        title,
        by: 'bridge',
        ...(url ? { url } : {}),
        ...(url && read ? { read } : {}),
      });
      this.options.log.info({ title }, 'made in Home Assistant');
      await this.replaced(replaces, outcome.made.entry_id);
    } else if ('aborted' in outcome && outcome.aborted === 'already_configured' && want.domain === MCP) {
      // Home Assistant shows no entry's address: the entry is the one of the server's name, the newer when the old is listed too.
      const named = (await this.api.entries()).filter((e) => e.domain === MCP && e.title === want.title);
      const found = named.length > 1 ? named.find((e) => e.entry_id !== replaces?.entry) : named[0];
      this.remember(want.key, { entry: found?.entry_id ?? null, title: found?.title ?? want.title, by: 'bridge', ...(url ? { url } : {}) });
      this.options.log.info({ title: want.title }, "already in Home Assistant at this bridge's address: taken as the bridge's");
      await this.replaced(replaces, found?.entry_id);
    } else if ('aborted' in outcome && outcome.aborted === 'already_configured') {
      const found = (await this.api.entries()).find((e) => e.domain === want.domain && e.title === want.title);
      if (found !== undefined && want.url !== undefined && !again) {
        await this.api.deleteEntry(found.entry_id);
        this.options.log.info({ title: want.title }, "already in Home Assistant: made again at this bridge's address");
        await this.make(want, true);
      } else if (found !== undefined) {
        this.remember(want.key, { entry: found.entry_id, title: want.title, by: 'bridge' });
        this.options.log.info({ title: want.title }, 'already in Home Assistant: taken as it is');
      } else {
        this.remember(want.key, { entry: null, title: want.title, by: 'family' });
        this.options.log.info({ title: want.title }, 'its address is already in Home Assistant under another name (made by the family): kept');
      }
    } else {
      const why = 'aborted' in outcome ? outcome.aborted : outcome.errors;
      throw new HomeAssistantError('refused', undefined, `${want.domain} refused to make "${want.title}": ${why}`);
    }
  }

  /** The MCP entry a new one stands in for, deleted (one deleted meanwhile is gone already). */
  private async replaced(old: Known | undefined, current: string | undefined): Promise<void> {
    if (old?.entry === undefined || old.entry === null || old.entry === current) return;
    await this.api.deleteEntry(old.entry);
    this.options.log.info({ title: old.title }, 'the entry it stands in for deleted from Home Assistant');
  }

  /**
   * Each calendar whose calendar feed changed since Home Assistant last read it is asked to read it again
   * (`homeassistant.update_entity` on its entity): at once after the pass, at most once in READ_AGAIN per
   * calendar (a later change waits for that, then one ask covers all of them).
   */
  private async readAgain(): Promise<void> {
    const now = this.options.clock.now();
    let next: number | undefined;
    for (const [key, known] of Object.entries(this.made.entries)) {
      const serving = this.serving.get(key);
      if (known.url === undefined || known.gone || known.entry === null || serving === undefined || known.read === serving) continue;
      const due = (this.askedAt.get(key) ?? -Infinity) + READ_AGAIN;
      if (due > now) {
        next = Math.min(next ?? due, due);
        continue;
      }
      const entity = known.entity ?? (await this.api.entityNamed('calendar', known.title));
      this.askedAt.set(key, now);
      if (entity === undefined) {
        // Not listed (yet, or renamed by the family): Home Assistant's own daily read stays.
        this.options.log.debug({ title: known.title }, 'no calendar entity of that name: not asked to read its feed again');
        continue;
      }
      await this.api.updateEntity(entity);
      this.remember(key, { ...known, entity, read: serving });
      await this.save();
      this.options.log.debug({ entity }, 'Home Assistant asked to read a changed calendar feed again');
    }
    this.lookIn(next === undefined ? undefined : next - now);
  }

  /** Each homework list in step with the school's homework; Home Assistant is asked only when something changed. */
  private async keepHomework(): Promise<void> {
    const today = warsawDate(this.options.clock.now());
    const { ids } = this.options.children();
    for (const [child, entries] of this.agenda) {
      const key = `${child}/homework`;
      const list = this.made.entries[key];
      if (!ids.includes(child) || list === undefined || list.gone) continue;
      const homework = homeworkItems(entries, HOMEASSISTANT_TEXT[this.options.language].homework);
      const kept = (this.made.homework[child] ??= {});
      if (!needsLook(homework, kept, today)) continue;
      const entity = list.entity ?? (await this.api.entityNamed('todo', list.title));
      let items: HaItem[];
      try {
        if (entity === undefined) throw new HomeAssistantError('server_error', undefined, `no to-do entity named "${list.title}"`);
        items = await this.api.items(entity);
      } catch (error) {
        await this.listGone(key, list, error);
        continue;
      }
      if (list.entity === undefined) this.remember(key, { ...list, entity });
      for (const step of todoSteps(homework, kept, items, today)) {
        const target = { entity_id: entity };
        if (step.do === 'add') {
          const { summary, description, due } = step.written;
          await this.api.todo('add_item', { ...target, item: summary, due_date: due, ...(description === null ? {} : { description }) });
          kept[step.uid] = { ...step.written, item: null };
        } else if (step.do === 'update') {
          const { summary, description, due } = step.written;
          await this.api.todo('update_item', { ...target, item: step.item, rename: summary, due_date: due, description });
          kept[step.uid] = { ...(kept[step.uid] as (typeof kept)[string]), ...step.written };
        } else if (step.do === 'remove') {
          await this.api.todo('remove_item', { ...target, item: [step.item] });
          delete kept[step.uid];
        } else if (step.do === 'found') kept[step.uid] = { ...(kept[step.uid] ?? (step.written as Written)), item: step.item };
        else (kept[step.uid] as (typeof kept)[string]).gone = true;
        await this.save();
      }
    }
  }

  /**
   * A list whose items could not be read: gone when Home Assistant no longer lists its entry (deleted by
   * the family: remembered); else the failure stands. A service call on a missing entity answers an error.
   */
  private async listGone(key: string, list: Known, error: unknown): Promise<void> {
    if (!(error instanceof HomeAssistantError) || error.fault !== 'server_error' || list.entry === null) throw error;
    if ((await this.api.entries()).some((e) => e.entry_id === list.entry)) throw error;
    this.remember(key, { ...list, gone: true });
    await this.save();
    this.options.log.info({ title: list.title }, 'removed from Home Assistant by the family: not made again');
  }

  private remember(key: string, known: Known | undefined): void {
    if (known === undefined) {
      delete this.made.entries[key];
      if (key.endsWith('/homework')) delete this.made.homework[key.slice(0, -'/homework'.length)];
    } else this.made.entries[key] = known;
  }

  /** What was made kept in data_dir, and told on with the base topic with what the family deleted. */
  private save(): Promise<void> {
    this.options.handover?.tellHomeAssistant(toldOn(this.made));
    return this.file
      .save(this.made)
      .catch((error: unknown) => this.options.log.warn({ err: errorText(error) }, 'cannot keep what was made in Home Assistant in data_dir'));
  }

  private async recovered(): Promise<void> {
    if (this.made.problem === undefined) return;
    this.options.log.info("Home Assistant's API answers again");
    delete this.made.problem;
    await this.save();
  }

  /** A log line when the fault is new, the reason kept for the diagnostics; a lost answer is tried again soon. */
  protected async failed(error: unknown, wait: number): Promise<number | undefined> {
    const { problem, fresh } = problemAfter(this.made.problem, error, this.options.clock.now());
    // No answer to one call while others of the look were answered: that answer was lost, Home Assistant is there.
    const lost = problem.fault === 'unreachable' && this.answers > this.answersBefore;
    this.lookedFor = undefined;
    if (fresh) {
      this.options.log.warn(
        { fault: problem.fault, err: problem.message, retry_in_minutes: (lost ? RETRY.lost : wait) / MINUTE },
        "Home Assistant's API failed: the calendars and homework lists wait",
      );
    }
    this.made.problem = problem;
    await this.save();
    return lost ? RETRY.lost : undefined;
  }
}
