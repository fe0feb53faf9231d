// The bridge's own `problem` (interface 12.3, 13.2): what no child's device can carry. An `email` entry
// that names no child yet (a wrong password, the family portal down, no child linked), the broker
// refusing a topic, the data folder, the app's options refused. Its attributes follow a child's `problem`:
// `reason`, `message` (the advice in the family's language), `since`, the portal's words, and `entry`,
// the e-mail masked as the diagnostics mask it (or the refused topic, or `options`). Several at once:
// the first is told, `problems` lists them all.
import { LoginPausedError, NoChildrenError, portalMessageOf, problemReason } from '../portal/errors.js';
import { bridgeProblemAdvice, portalSays, type BridgeProblemReason } from '../i18n/problem-advice.js';
import { isoWarsaw, warsawTimeOfDay } from '../util/time.js';
import { hint } from '../util/text.js';
import type { EntityState } from '../engine/state.js';
import type { Language } from '../config/language.js';
import type { Clock } from '../util/clock.js';

/** An `email` entry whose family portal links no child (and the config's `children:` names none). */
export interface BridgeProblemsOptions {
  language: Language;
  clock: Clock;
  /** Where the state goes (the MQTT bridge's own device). */
  publish: (state: EntityState) => void;
}

interface Open {
  reason: BridgeProblemReason;
  entry: string;
  since: number;
  /** The portal's words and the end of a login pause, when the error carries them. */
  words?: string;
  /** What follows the advice: the refused options, each named by its key. */
  detail?: string;
  retryAt?: string;
}

export class BridgeProblems {
  /** What is wrong now, by what it is about (`family:<e-mail>`, `broker:<topic>`, `data_dir`), first come first. */
  private readonly open = new Map<string, Open>();

  constructor(private readonly options: BridgeProblemsOptions) {}

  /** An `email` entry could not name its children (the error of its login or list); `undefined`: it did. */
  familyRoad(email: string, error: unknown): void {
    const key = `family:${email.trim().toLowerCase()}`;
    if (error === undefined) return this.close(key);
    const reason = error instanceof NoChildrenError ? 'no_children' : problemReason(error);
    const words = portalMessageOf(error);
    this.note(key, {
      reason,
      entry: hint(email.trim()),
      ...(words === undefined ? {} : { words }),
      ...(error instanceof LoginPausedError ? { retryAt: warsawTimeOfDay(error.until) } : {}),
    });
  }

  /** The broker refused a topic (a subscription or a publish) for a reason the family must fix (outputs/mqtt/refusal.ts). */
  broker(topic: string, reason: BridgeProblemReason): void {
    this.note(`broker:${topic}`, { reason, entry: topic });
  }

  /** Another bridge on this base topic this one does not act on (named): it waits and knocks, or claims it while this one holds it (`undefined`: none now). */
  baseTopic(other: string | undefined): void {
    if (other === undefined) return this.close('base_topic');
    this.note('base_topic', { reason: 'base_topic_in_use', entry: other });
  }

  /** Another connection took this bridge's MQTT client id (named: the other bridge, or the id): it stopped using it. */
  clientId(other: string): void {
    this.note('client_id', { reason: 'client_id_in_use', entry: other });
  }

  /** data_dir could not be written (`undefined`: it could again). */
  storage(error: unknown): void {
    if (error === undefined) return this.close('data_dir');
    this.note('data_dir', { reason: 'storage_error', entry: 'data_dir' });
  }

  /** The app's options were refused (interface 13.2): each problem names its key in the form. */
  refusedOptions(problems: readonly string[]): void {
    this.note('options', { reason: 'config_invalid', entry: 'options', detail: problems.join('; ') });
  }

  /** The state as it is now: OFF, or ON with the first open problem's facts. */
  state(): EntityState {
    const all = [...this.open.values()];
    const first = all[0];
    if (first === undefined) return { state: 'OFF', attributes: { reason: null } };
    const { language } = this.options;
    const advice = bridgeProblemAdvice(first.reason, language);
    const attributes: Record<string, unknown> = {
      reason: first.reason,
      message: first.words !== undefined ? `${portalSays(first.words, language)}. ${advice}` : [advice, first.detail].filter(Boolean).join(' '),
      entry: first.entry,
      since: isoWarsaw(first.since),
    };
    if (first.words !== undefined) attributes.portal_message = first.words;
    if (first.retryAt !== undefined) attributes.retry_at = first.retryAt;
    if (all.length > 1) attributes.problems = all.map((p) => ({ reason: p.reason, entry: p.entry }));
    return { state: 'ON', attributes };
  }

  /** Publishes the state now (at start: OFF until something is wrong). */
  publish(): void {
    this.options.publish(this.state());
  }

  private note(key: string, facts: Omit<Open, 'since'>): void {
    const before = this.open.get(key);
    // `since` is when the problem began; a new reason is a new problem.
    const since = before?.reason === facts.reason ? before.since : this.options.clock.now();
    this.open.set(key, { ...facts, since });
    this.publish();
  }

  private close(key: string): void {
    if (this.open.delete(key)) this.publish();
  }
}
