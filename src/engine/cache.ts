// The account's one cache: every copy of a portal resource the bridge holds, with what is known of each
// (`known`, the facts the planner, plan.ts, decides from). A pass reads each copy at most once; a copy
// whose last read failed answers that error (or, where its declaration says so, its last good value)
// until a read succeeds.
import { isDeepStrictEqual } from 'node:util';
import { UnexpectedResponseError } from '../portal/errors.js';
import type { Known, When } from './schedule.js';
import type { Portal, Resource, Want } from './resource.js';
import { errorText } from '../util/text.js';

interface Copy {
  /** Counts its reads (a good one, a refusal, a failure): a feature runs again when it moved. */
  version: number;
  value?: unknown;
  readAt?: number;
  refusedUntil?: number;
  /** While its answers are refusals: when the first of them in a row came (readAt is the latest's). */
  refusedSince?: number;
  /** The signal's value when the copy was read. */
  signal?: string;
  failedAt?: number;
  /** The error of its last read, when it failed (a resource's failure, not the session's). */
  error?: unknown;
  settledUntil?: number;
  /** The bridge itself (a message opened, one sent) or the change feed says it changed. */
  moved?: boolean;
  /** A lookup's ids records named that it still lacked after a read made for them: not asked for again before Schedule.missAgeMs. */
  lacked?: ReadonlySet<string>;
}

export interface ResourceCacheOptions {
  /** What a read is made with; its clock and log are the cache's too. */
  portal: Omit<Portal, 'copies'>;
  /** The declarations the copies are read by, by name (a want's own resource when not among them). */
  resources?: readonly Resource[];
}

/** A copy as kept in data_dir through a restart (engine/kept-copies.ts): which, when read, its signal then, its value. */
export interface KeptCopy {
  name: string;
  key?: string;
  at: number;
  signal?: string;
  value: unknown;
}

export class ResourceCache {
  private readonly copies = new Map<string, Copy>();
  private readonly declared: ReadonlyMap<string, Resource>;
  /** The copies read in the pass under way (and the error a read that failed for the whole host raised); undefined between passes. */
  private pass: Map<string, { error?: unknown }> | undefined;
  /** The lists of a resource's answers told cut at their most (portal/list-caps.ts): each is logged once. */
  /** What was told once a resource: a list cut (`<resource> <list>`), an answer refused for its size. */
  private readonly toldOnce = new Set<string>();
  /** When a copy is read outside a pass (a command's lookup), as the account's planner says (plannedBy). */
  private planned: (w: Want) => When = () => ({ at: Infinity, by: Infinity, why: 'age' });
  /** Reads and lettings go of the copies kept through a restart (keptChanges). */
  private keptMoves = 0;

  constructor(private readonly options: ResourceCacheOptions) {
    this.declared = new Map((options.resources ?? []).map((r) => [r.name, r]));
  }

  /** One log line for a list cut at its most, the first time that list of that resource is. */
  private tellCut(resource: string, at: string, listed: number, kept: number): void {
    if (!this.firstTime(`${resource} ${at}`)) return;
    this.options.portal.log.warn({ resource, list: at, listed, kept }, 'a portal list cut at its most: the items past it are not read');
  }

  /**
   * One log line for an answer over its resource's cap, the first time that resource's is: a copy read only where it is
   * (the standing plan) fails no source that would tell it.
   */
  private tellTooLarge(resource: string, error: UnexpectedResponseError): void {
    if (!this.firstTime(`${resource} (too large)`)) return;
    this.options.portal.log.warn({ resource, err: error.message }, 'a portal answer larger than its most, refused unread: the last good copy stands');
  }

  /** Whether `what` is told now for the first time (and remembered as told). */
  private firstTime(what: string): boolean {
    if (this.toldOnce.has(what)) return false;
    this.toldOnce.add(what);
    return true;
  }

  /** A pass begins: each copy is read at most once until `end`. */
  begin(): void {
    this.pass = new Map();
  }

  end(): void {
    this.pass = undefined;
  }

  /** The account's planner, asked about one copy outside a pass (a command's `due`). */
  plannedBy(when: (w: Want) => When): void {
    this.planned = when;
  }

  /** The copy (undefined: none yet, or refused); throws the error of its failed read while it stands (see the header). */
  get<T>(res: Resource<T>, key?: string): T | undefined {
    const copy = this.copies.get(keyOf(res, key));
    // A settled copy still answers its question (the day's lucky number), whatever a read since met.
    const answers =
      copy?.value !== undefined && (this.declaration(res).keepOnError === true || (copy.settledUntil ?? -Infinity) > this.options.portal.clock.now());
    if (copy?.error !== undefined && !answers) throw copy.error;
    return copy?.value as T | undefined;
  }

  /** How many times the copy was read (a feature that took it in at another count runs again). */
  version(w: Want): number {
    return this.copies.get(keyOf(w.res, w.key))?.version ?? 0;
  }

  /** The last good copy, whatever the pass under way met (what a feature's reads are decided from). */
  peek<T>(res: Resource<T>, key?: string): T | undefined {
    return this.copies.get(keyOf(res, key))?.value as T | undefined;
  }

  /** Whether the portal refuses the resource now (a module the school lacks). */
  refused(res: Resource, key?: string): boolean {
    return this.options.portal.clock.now() < (this.copies.get(keyOf(res, key))?.refusedUntil ?? -Infinity);
  }

  /** While every copy's answers (a keyed one's weeks) are refusals, failed reads aside: since the first, and the latest's time. */
  refusal(res: Resource): { since: number; at: number } | undefined {
    const copies = this.copiesOf(res);
    const refused = copies.filter((c) => c.refusedSince !== undefined && c.readAt !== undefined);
    if (refused.length === 0 || copies.some((c) => c.value !== undefined)) return undefined;
    return { since: Math.min(...refused.map((c) => c.refusedSince!)), at: Math.max(...refused.map((c) => c.readAt!)) };
  }

  /** Whether some copy of the resource (any key) holds an answer. */
  answered(res: Resource): boolean {
    return this.copiesOf(res).some((c) => c.value !== undefined);
  }

  private copiesOf(res: Resource): Copy[] {
    // Asked of every resource at each pass (the modules' refusals): one walk of the copies, the prefix made once.
    const prefix = keyOf(res, '');
    const copies: Copy[] = [];
    for (const [k, c] of this.copies) if (k.startsWith(prefix)) copies.push(c);
    return copies;
  }

  /** Whether the copy was read (or its read failed) in the pass under way. */
  readThisPass(w: Want): boolean {
    return this.pass?.has(keyOf(w.res, w.key)) === true;
  }

  /** Whether the copy was read in the pass under way and its read did not fail (a refusal is an answer). */
  readOkThisPass(w: Want): boolean {
    const copy = this.copies.get(keyOf(w.res, w.key));
    return this.readThisPass(w) && copy?.readAt !== undefined && copy.failedAt === undefined;
  }

  /** Whether the copy is to be read now, as the account's planner says (and this pass has not read it yet). */
  due(w: Want): boolean {
    return !this.readThisPass(w) && this.planned(w).at <= this.options.portal.clock.now();
  }

  /** What is known of the copy: the facts the planner decides from (plan.ts; the pass's own, asked and start, it adds). */
  known(w: Want): Known {
    const res = this.declaration(w.res);
    const copy = this.copies.get(keyOf(res, w.key));
    const signal = res.signal?.(this, w.key);
    return {
      readAt: this.readAt(res, w.key),
      refusedUntil: copy?.refusedUntil,
      empty: copy?.value !== undefined && res.list?.(copy.value)?.length === 0,
      // A copy that holds nothing has no signal to compare yet: only the bridge's own change moves it.
      signal: copy?.moved ? 'changed' : signal === undefined || copy?.value === undefined ? 'none' : signal === copy.signal ? 'same' : 'changed',
      failedAt: copy?.failedAt,
      settledUntil: copy?.settledUntil,
      missing: w.missing?.length ? (w.missing.some((id) => copy?.lacked?.has(id) !== true) ? 'new' : 'asked') : undefined,
      ahead: w.ahead,
      onDemand: w.onDemand,
    };
  }

  /**
   * Reads the copy now (a due copy, or what a command needs now) and keeps the value, the refusal or the failure,
   * which is thrown (a refusal is not). Read already in this pass: its error again, without a request.
   */
  async read(w: Want): Promise<void> {
    const k = keyOf(w.res, w.key);
    const done = this.pass?.get(k);
    if (done !== undefined) {
      if (done.error !== undefined) throw done.error;
      return;
    }
    const now = this.options.portal.clock.now();
    const res = this.declaration(w.res);
    this.pass?.set(k, {});
    const before = this.copies.get(k);
    const version = (before?.version ?? 0) + 1;
    if (res.kept !== undefined) this.keptMoves++;
    try {
      const value = await res.read({ ...this.options.portal, copies: this, cut: (...told) => this.tellCut(...told) }, w.key);
      this.keep(res, w.key, value, now, [...(before?.lacked ?? []), ...(w.missing ?? [])]);
    } catch (error) {
      const until = res.refusal?.(error, now);
      if (until !== undefined) {
        this.refusedNow(res, error, until);
        const since = (before?.value === undefined ? before?.refusedSince : undefined) ?? now;
        this.copies.set(k, { version, readAt: now, refusedUntil: until, refusedSince: since });
        return;
      }
      if (error instanceof UnexpectedResponseError && error.code === 'TooLarge') this.tellTooLarge(res.name, error);
      if (error instanceof UnexpectedResponseError) this.copies.set(k, { ...before, version, failedAt: now, error });
      else {
        // A dead session or the portal down is the host's, not this copy's: the pass stops reading the
        // host, and the copy, unchanged, is read again when the host is.
        this.pass?.set(k, { error });
        this.copies.set(k, { version: before?.version ?? 0, ...before, failedAt: now });
      }
      throw error;
    }
  }

  /**
   * The bridge itself changed the resource on the portal, or the change feed names it: every copy is read at
   * the next look. One not read yet is marked too: a reply sent at night, before the sent box's first read
   * (which the night leaves for 06:00), must still show at once.
   */
  moved(res: Resource, key?: string): void {
    for (const [k, copy] of this.copies) if (k === keyOf(res, key) || (key === undefined && k.startsWith(keyOf(res, '')))) copy.moved = true;
    if (!this.copies.has(keyOf(res, key))) this.copies.set(keyOf(res, key), { version: 0, moved: true });
  }

  /**
   * Lets go of the copies of a span of the calendar no want names any more (Resource.byPeriod: last
   * week's timetable), so that a year of weeks does not pile up; other copies are one per resource or
   * per what a feature decides from them (a sent message), and stay.
   */
  forget(wants: readonly Want[]): void {
    const named = new Set(wants.map((w) => keyOf(this.declaration(w.res), w.key)));
    const periods = [...this.declared.values(), ...wants.map((w) => w.res)].filter((r) => r.byPeriod === true).map((r) => keyOf(r, ''));
    for (const k of [...this.copies.keys()]) if (!named.has(k) && periods.some((p) => k.startsWith(p) && k !== p)) this.letGo(k);
  }

  /**
   * A copy read outside a pass's reads (a login's proof, what the last run kept in data_dir), read at `at`; `signal`:
   * its signal's value when it was read, where the signal's own copy is not read yet (engine/kept-copies.ts).
   */
  seed<T>(res: Resource<T>, value: T, at: number, key?: string, signal?: string): void {
    this.keep(this.declaration(res), key, value, at);
    if (signal !== undefined) this.copies.get(keyOf(res, key))!.signal = signal;
  }

  /** The good copies of the resources whose declaration keeps them through a restart (Resource.kept), as read. */
  keptCopies(): KeptCopy[] {
    const kept: KeptCopy[] = [];
    for (const [k, copy] of this.copies) {
      const [name, key] = k.split('\u0000') as [string, string];
      if (this.declared.get(name)?.kept === undefined || copy.value === undefined || copy.readAt === undefined) continue;
      kept.push({
        name,
        ...(key === '' ? {} : { key }),
        at: copy.readAt,
        ...(copy.signal === undefined ? {} : { signal: copy.signal }),
        value: copy.value,
      });
    }
    return kept;
  }

  /** Counts the changes of the copies keptCopies lists (one read, one let go): what keeps them writes only after one. */
  get keptChanges(): number {
    return this.keptMoves;
  }

  /**
   * A copy another child of the same school read (Resource.school, engine/school-reads.ts), taken as this child's own
   * read of it: only where this child's own copy answers (the portal does not refuse it the resource), is older and
   * says otherwise. True when taken: the features that read it compute again.
   */
  take<T>(res: Resource<T>, value: T, at: number): boolean {
    const own = this.copies.get(keyOf(res, undefined));
    if (own?.value === undefined || (own.readAt ?? Infinity) >= at || isDeepStrictEqual(own.value, value)) return false;
    this.keep(this.declaration(res), undefined, value, at);
    return true;
  }

  private letGo(k: string): void {
    if (this.declared.get(k.split('\u0000')[0]!)?.kept !== undefined) this.keptMoves++;
    this.copies.delete(k);
  }

  /** Keeps a good copy; `asked`: the ids it was read for (those it still lacks are remembered as asked for). */
  private keep<T>(res: Resource<T>, key: string | undefined, value: T, at: number, asked: readonly string[] = []): void {
    if (res.kept !== undefined) this.keptMoves++;
    const version = (this.copies.get(keyOf(res, key))?.version ?? 0) + 1;
    const listed = asked.length === 0 ? undefined : new Set(res.list?.(value)?.map((item) => (item as { Id?: string }).Id));
    const lacked = listed && new Set(asked.filter((id) => !listed.has(id)));
    this.copies.set(keyOf(res, key), { version, value, readAt: at, signal: res.signal?.(this, key), settledUntil: res.settled?.(value, at), lacked });
  }

  /** When the copy was read (undefined: never, or it is refused). */
  readAt(res: Resource, key?: string): number | undefined {
    const copy = this.copies.get(keyOf(res, key));
    return copy?.value === undefined ? undefined : copy.readAt;
  }

  /** The account's declaration of the resource (the bench's are transformed), or the resource itself. */
  declaration<T>(res: Resource<T>): Resource<T> {
    return (this.declared.get(res.name) as Resource<T> | undefined) ?? res;
  }

  private refusedNow(res: Resource, error: unknown, until: number): void {
    const fields = { endpoint: res.endpoints[0], until: new Date(until).toISOString() };
    // A switched-off module is the school's choice, worth one line a day; a 403 is routine.
    if (error instanceof UnexpectedResponseError && error.switchedOff)
      this.options.portal.log.info({ ...fields, code: error.code }, 'the school does not use this module; asking again later');
    else this.options.portal.log.debug({ ...fields, err: errorText(error) }, 'refused; not asking again for a while');
  }
}

function keyOf(res: Resource, key: string | undefined): string {
  return `${res.name}\u0000${key ?? ''}`;
}
