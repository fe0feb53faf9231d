// Home Assistant's REST API, the few calls the bridge makes there (docs/home-assistant.md says from which
// of Home Assistant's sources each was read): the config entries (listed, made through their
// integration's config flow, deleted), the states (where a to-do list's entity is found) and the to-do
// services. Every answer is read through a schema; every failure is one error with a named fault.
import * as z from 'zod';
import type { HaFault } from '../../i18n/homeassistant-text.js';
import { knownNames, redact, redactAndCut } from '../../util/redact.js';
import { errorText, parsedJson } from '../../util/text.js';

/** A call Home Assistant refused, failed or never answered: its fault names the reason in the diagnostics. */
export class HomeAssistantError extends Error {
  override readonly name = 'HomeAssistantError';

  constructor(
    readonly fault: HaFault,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(redact(message), options);
  }
}

const entrySchema = z.looseObject({ entry_id: z.string(), domain: z.string(), title: z.string() });
/** A config entry as `GET /api/config/config_entries/entry` lists it (its data is never listed). */
export type HaEntry = z.output<typeof entrySchema>;

const flowSchema = z.looseObject({
  type: z.string(),
  flow_id: z.string().optional(),
  errors: z.record(z.string(), z.string()).nullish(),
  reason: z.string().optional(),
  result: entrySchema.optional(),
});

const itemSchema = z.looseObject({
  uid: z.string(),
  summary: z.string(),
  status: z.string(),
  due: z.string().optional(),
  description: z.string().optional(),
});
/** A to-do item as `todo.get_items` answers it (a field without a value is left out). */
export type HaItem = z.output<typeof itemSchema>;

const itemsAnswer = z.looseObject({ service_response: z.record(z.string(), z.looseObject({ items: z.array(itemSchema) })) });
const statesAnswer = z.array(z.looseObject({ entity_id: z.string(), attributes: z.looseObject({ friendly_name: z.string().optional() }) }));

/** What a config flow ended with: the entry made, or why not (an abort's reason, the form's errors). */
export type FlowOutcome = { made: HaEntry } | { aborted: string } | { errors: string };

/** A flow that neither made its entry nor found it made: refused, with Home Assistant's reason. */
export function flowRefused(
  { domain, title }: { domain: string; title: string },
  outcome: Exclude<FlowOutcome, { made: HaEntry }>,
): HomeAssistantError {
  const why = 'aborted' in outcome ? outcome.aborted : outcome.errors;
  return new HomeAssistantError('refused', undefined, `${domain} refused to make "${title}": ${why}`);
}

export interface HomeAssistantApiOptions {
  /** Home Assistant's address (`http://supervisor/core` inside the app), without /api. */
  url: string;
  token: string;
  /** Longer than a Remote Calendar's flow takes to fetch the calendar feed it validates (30 s at most). */
  timeoutMs?: number;
  /** Told of every call as it is made (the keeper counts them). */
  onCall?: () => void;
  /** Aborts every call under way and any later one (the keeper's stop: a call is abandoned, not awaited). */
  signal?: AbortSignal;
  /** Told of every answer that came, whatever it said (a call that got none is a lost answer or an API away). */
  onAnswer?: () => void;
}

export class HomeAssistantApi {
  constructor(private readonly options: HomeAssistantApiOptions) {
    // The token is masked whole wherever it would stand (a server may echo it), even when no config named it.
    knownNames.secret(options.token);
  }

  async entries(): Promise<HaEntry[]> {
    return read(z.array(entrySchema), await this.call('GET', 'config/config_entries/entry'));
  }

  /**
   * Makes an entry through its integration's config flow: the flow started, then its user step answered
   * with `input`. `started` hears the flow's id before the step is sent: if its answer is lost, the flow
   * may be left in progress, for `abortFlow` to end.
   */
  async makeEntry(handler: string, input: Record<string, unknown>, started?: (flowId: string) => Promise<void>): Promise<FlowOutcome> {
    let step = read(flowSchema, await this.call('POST', 'config/config_entries/flow', { handler }));
    if (step.type === 'form' && step.flow_id !== undefined) {
      await started?.(step.flow_id);
      step = read(flowSchema, await this.call('POST', `config/config_entries/flow/${step.flow_id}`, input));
    }
    if (step.type === 'create_entry' && step.result) return { made: step.result };
    if (step.type === 'abort') return { aborted: step.reason ?? 'abort' };
    return { errors: Object.values(step.errors ?? {}).join(', ') || step.type };
  }

  /** Aborts a flow left in progress; false when none is under that id (it finished, or was aborted). */
  abortFlow(flowId: string): Promise<boolean> {
    return this.delete(`config/config_entries/flow/${encodeURIComponent(flowId)}`);
  }

  /** Deletes an entry; false when Home Assistant has none of that id (already deleted). */
  deleteEntry(entryId: string): Promise<boolean> {
    return this.delete(`config/config_entries/entry/${encodeURIComponent(entryId)}`);
  }

  /** A DELETE; false when Home Assistant has nothing at that path (404). */
  private async delete(path: string): Promise<boolean> {
    try {
      await this.call('DELETE', path);
      return true;
    } catch (error) {
      if (error instanceof HomeAssistantError && error.status === 404) return false;
      throw error;
    }
  }

  /** The entity of a to-do list or a calendar, found by its name among the states (the REST API has no entity registry). */
  async entityNamed(domain: 'todo' | 'calendar', name: string): Promise<string | undefined> {
    const states = read(statesAnswer, await this.call('GET', 'states'));
    return states.find((s) => s.entity_id.startsWith(`${domain}.`) && s.attributes.friendly_name === name)?.entity_id;
  }

  /** `homeassistant.update_entity`: the entity updates now (a Remote Calendar reads its calendar feed again). */
  async updateEntity(entity: string): Promise<void> {
    await this.call('POST', 'services/homeassistant/update_entity', { entity_id: entity });
  }

  async items(entity: string): Promise<HaItem[]> {
    const answer = read(itemsAnswer, await this.call('POST', 'services/todo/get_items?return_response', { entity_id: entity }));
    return answer.service_response[entity]?.items ?? [];
  }

  /** A to-do service that changes the list: its fields as Home Assistant's schema names them. */
  async todo(service: 'add_item' | 'update_item' | 'remove_item', data: Record<string, unknown>): Promise<void> {
    await this.call('POST', `services/todo/${service}`, data);
  }

  /** A call's signal: its timeout, and the stop's. */
  private signal(): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
    return this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    this.options.onCall?.();
    const what = `${method} /api/${path.replace(/\?.*$/, '')}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.options.url}/api/${path}`, {
        method,
        headers: { authorization: `Bearer ${this.options.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: this.signal(),
      });
      text = await response.text();
      this.options.onAnswer?.();
    } catch (error) {
      throw new HomeAssistantError('unreachable', undefined, `${what}: no answer (${errorText(error)})`, { cause: error });
    }
    if (!response.ok) {
      const said = messageOf(text);
      throw new HomeAssistantError(faultOf(response.status), response.status, `${what}: HTTP ${response.status}${said ? ` (${said})` : ''}`);
    }
    const value = text === '' ? null : parsedJson(text);
    if (value === undefined) throw new HomeAssistantError('server_error', response.status, `${what}: the answer is not JSON`);
    return value;
  }
}

/** An answer through its schema; one of another shape is Home Assistant's fault, not a bug here. */
function read<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HomeAssistantError('server_error', undefined, `an answer of an unexpected shape (${parsed.error.issues[0]?.message ?? ''})`);
  return parsed.data;
}

function faultOf(status: number): HaFault {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 502 && status <= 504) return 'unavailable';
  return status >= 500 ? 'server_error' : 'refused';
}

/** The longest of Home Assistant's own words kept from a refusal. */
const MESSAGE_CHARS = 200;
/** The longest failure logged or kept whole: the call, its status and those words. */
const FAULT_CHARS = 400;

/** An API's last fault as the diagnostics show it: which, since when, what was said (masked, then cut). */
export type ApiProblem = { fault: HaFault; since: number; message: string };

/** The fault kept after a failure: since when kept while it stays the same; `fresh` when it is new (then logged). */
export function problemAfter(was: ApiProblem | undefined, error: unknown, now: number): { problem: ApiProblem; fresh: boolean } {
  const fault: HaFault = error instanceof HomeAssistantError ? error.fault : 'server_error';
  const fresh = was?.fault !== fault;
  return { problem: { fault, since: fresh ? now : was.since, message: faultText(error) }, fresh };
}

/**
 * A failure as the log and data_dir keep it: masked, then cut. One of the client's is masked already; any
 * other (a file, a bug, the Supervisor's words) may still hold what came from outside.
 */
export function faultText(error: unknown): string {
  return redactAndCut(errorText(error), FAULT_CHARS);
}

/** Home Assistant's own words in a refusal (`{"message": ...}`), masked, then short (a server may echo the token). */
function messageOf(text: string): string | undefined {
  const message = (parsedJson(text) as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? redactAndCut(message, MESSAGE_CHARS) : undefined;
}
