// The entries the bridge keeps in Home Assistant (interface 15.4): each child's calendars (Remote Calendar, one per
// calendar feed) and homework list (Local To-do), and Assist's entry (assist-entry.ts). Made when missing, made again
// at a new address, the family's deletions remembered, a removed child's removed; Home Assistant is asked only when
// something may have to be done. One made before under its name is the bridge's whoever made it (this bridge before
// a lost answer, a predecessor on the base topic, the family by hand).
import { flowRefused, HomeAssistantError, type FlowOutcome } from './client.js';
import { childOfKey, keptUrl, MCP, reconcile, REMOTE_CALENDAR, type Step, type Wanted } from './steps.js';
import { madeAssist } from './assist-entry.js';
import type { Known } from './made.js';
import type { Kept } from './kept.js';

export class Entries {
  /** What was last looked for and done: nothing is asked again until it changes (or a look failed). */
  private lookedFor: string | undefined;

  constructor(private readonly kept: Kept) {}

  /** After a failure: the next look asks Home Assistant again. */
  lookAgain(): void {
    this.lookedFor = undefined;
  }

  /** The entries `wanted` made or kept; with `complete`, the children not among `ids` removed. */
  async keep(wanted: readonly Wanted[], { ids, complete }: { ids: readonly string[]; complete: boolean }): Promise<void> {
    const { made, api } = this.kept;
    const leaving =
      complete &&
      Object.keys(made.entries).some((key) => {
        const child = childOfKey(key);
        return child !== undefined && !ids.includes(child);
      });
    const sought = JSON.stringify([wanted, complete && ids]);
    if (sought === this.lookedFor || (wanted.length === 0 && !leaving)) return;
    await this.abortOrphans();
    const present = new Set((await api.entries()).map((e) => e.entry_id));
    let first: unknown;
    for (const step of reconcile(wanted, made.entries, present, complete ? ids : undefined)) {
      try {
        await this.take(step);
      } catch (error) {
        // A flow one entry fails (its calendar feed not served yet) leaves the others to be made; an API that is away fails them all.
        if (error instanceof HomeAssistantError && error.fault !== 'refused' && error.fault !== 'server_error') throw error;
        first ??= error;
      }
      await this.kept.save();
    }
    if (first !== undefined) throw first;
    this.lookedFor = sought;
  }

  /** One step of the reconciliation (steps.ts). */
  private async take(step: Step): Promise<void> {
    const { api, log } = this.kept;
    if (step.do === 'gone') {
      this.kept.remember(step.key, { ...(this.kept.made.entries[step.key] as Known), gone: true });
      log.info({ key: step.key }, 'removed from Home Assistant by the family: not made again');
    } else if (step.do === 'remove') {
      if (step.known.by === 'bridge' && !step.known.gone && step.known.entry !== null) await api.deleteEntry(step.known.entry);
      this.kept.remember(step.key, undefined);
      log.info({ title: step.known.title }, 'its child is no longer read: removed from Home Assistant');
    } else if (step.want.domain === MCP) {
      // Its flow aborts on the address alone, so the new entry is made before the old one goes: a lost answer
      // in between leaves the old one known and still there, never an entry taken for deleted by the family.
      await madeAssist(this.kept, step.want, await this.flow(step.want), step.do === 'remake' ? step.known : undefined);
    } else {
      if (step.do === 'remake' && step.known.entry !== null) {
        await api.deleteEntry(step.known.entry);
        // Deleted by the bridge: a lost answer to the flow that follows must not find it missing and take it for the family's deletion.
        this.kept.remember(step.want.key, undefined);
        await this.kept.save();
      }
      await this.make(step.want);
    }
  }

  /** The flows a lost answer left in progress, aborted (one that finished meanwhile is already gone). */
  private async abortOrphans(): Promise<void> {
    const { made, api, log } = this.kept;
    for (const [key, flow] of Object.entries(made.flows ?? {})) {
      if (await api.abortFlow(flow)) log.info({ key }, 'a flow whose answer was lost: aborted in Home Assistant');
      delete made.flows?.[key];
      await this.kept.save();
    }
  }

  /** One flow of an entry, its id kept until its step answered (a lost answer leaves it for abortOrphans). */
  private async flow(want: Wanted): Promise<FlowOutcome> {
    const { api } = this.kept;
    const input =
      want.domain === REMOTE_CALENDAR
        ? { calendar_name: want.title, url: want.url }
        : want.domain === MCP
          ? { url: want.url }
          : { todo_list_name: want.title };
    let flow: string | undefined;
    const outcome = await api.makeEntry(want.domain, input, async (id) => {
      flow = id;
      this.kept.made.flows = { ...this.kept.made.flows, [want.key]: id };
      await this.kept.save();
    });
    // A step answered with the form again (its calendar feed could not be read) leaves the flow open: ended here.
    if ('errors' in outcome && flow !== undefined) await api.abortFlow(flow);
    delete this.kept.made.flows?.[want.key];
    return outcome;
  }

  /**
   * A calendar or a list made through its integration's flow. One already there under its name: a list is taken as it
   * is; a calendar, whose address Home Assistant does not show, is made again at the calendar feed's address and key.
   * A calendar whose address alone is taken (named otherwise by the family) is theirs.
   */
  private async make(want: Wanted, again = false): Promise<void> {
    const { api, log } = this.kept;
    const outcome = await this.flow(want);
    if ('made' in outcome) {
      // Its flow has just read the calendar feed: what it serves now is what Home Assistant holds.
      const [url, read] = [keptUrl(want), this.kept.serving.get(want.key)];
      this.kept.remember(want.key, {
        entry: outcome.made.entry_id,
        title: want.title,
        by: 'bridge',
        ...(url ? { url } : {}),
        ...(url && read ? { read } : {}),
      });
      log.info({ title: want.title }, 'made in Home Assistant');
    } else if ('aborted' in outcome && outcome.aborted === 'already_configured') {
      const found = (await api.entries()).find((e) => e.domain === want.domain && e.title === want.title);
      if (found !== undefined && want.url !== undefined && !again) {
        await api.deleteEntry(found.entry_id);
        log.info({ title: want.title }, "already in Home Assistant: made again at this bridge's address");
        await this.make(want, true);
      } else if (found !== undefined) {
        this.kept.remember(want.key, { entry: found.entry_id, title: want.title, by: 'bridge' });
        log.info({ title: want.title }, 'already in Home Assistant: taken as it is');
      } else {
        this.kept.remember(want.key, { entry: null, title: want.title, by: 'family' });
        log.info({ title: want.title }, 'its address is already in Home Assistant under another name (made by the family): kept');
      }
    } else throw flowRefused(want, outcome);
  }
}
