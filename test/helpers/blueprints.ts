// Home Assistant blueprints as the tests read them: the YAML with its `!input` tags, the inputs bound
// the way Home Assistant binds them (a value given, else the input's default), a state trigger matched
// against a state change, and templates rendered by Jinja2 as Home Assistant renders them
// (test/helpers/ha-templates.py).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pythonHas } from './python.js';
import { parse, type ScalarTag } from 'yaml';

/** A `!input name` in a blueprint, before binding. */
export class InputRef {
  constructor(readonly name: string) {}
}

const INPUT_TAG: ScalarTag = { tag: '!input', resolve: (name: string) => new InputRef(name) };

export interface Blueprint {
  blueprint: { name: string; description: string; domain: string; source_url: string; input: Record<string, InputDecl> };
  [key: string]: unknown;
}

export interface InputDecl {
  name?: string;
  description?: string;
  default?: unknown;
  selector?: Record<string, unknown>;
}

/**
 * A blueprint read as Home Assistant reads it: YAML 1.1, where a bare `on` or `yes` is a boolean (a key `on:` is
 * `true`), with its `!input` tag (test/unit/yaml/read-as-home-assistant.test.ts holds each blueprint to reading the
 * same under PyYAML, Home Assistant's own loader).
 */
export function loadBlueprint(path: string): Blueprint {
  return parse(readFileSync(path, 'utf8'), { customTags: [INPUT_TAG], version: '1.1' }) as Blueprint;
}

/** Every `!input` the blueprint uses, in order of appearance, once each. */
export function usedInputs(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (v instanceof InputRef) names.add(v.name);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...names];
}

/** The automation part (everything but `blueprint:`) with each `!input` replaced by its value. */
export function bind(bp: Blueprint, values: Record<string, unknown>): Record<string, unknown> {
  const declared = bp.blueprint.input;
  const valueOf = (name: string): unknown => {
    if (name in values) return values[name];
    const decl = declared[name];
    if (decl && 'default' in decl) return decl.default;
    throw new Error(`input ${name} has no value and no default`);
  };
  const walk = (v: unknown): unknown => {
    if (v instanceof InputRef) return valueOf(v.name);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const { blueprint: _declaration, ...automation } = bp;
  return walk(automation) as Record<string, unknown>;
}

export interface HaState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  /** The device Home Assistant's registry puts the entity on (a child's, for the bridge's entities). */
  device?: HaDevice;
}

export interface HaDevice {
  id: string;
  name: string;
}

export interface StateChange {
  from: HaState;
  to: HaState;
}

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Whether a `trigger: state` fires for the change (entity_id, from/to and not_from/not_to). As in Home
 * Assistant, a trigger with none of the four fires on a change of the attributes alone too.
 */
export function stateTriggerFires(trigger: Record<string, unknown>, change: StateChange): boolean {
  if (trigger.trigger !== 'state') return false;
  if (!list(trigger.entity_id).includes(change.to.entity_id)) return false;
  const any = ['from', 'to', 'not_from', 'not_to'].every((k) => trigger[k] === undefined);
  const attributesChanged = JSON.stringify(change.from.attributes) !== JSON.stringify(change.to.attributes);
  if (change.from.state === change.to.state && !(any && attributesChanged)) return false;
  if (list(trigger.not_from).includes(change.from.state) || list(trigger.not_to).includes(change.to.state)) return false;
  if (trigger.from !== undefined && !list(trigger.from).includes(change.from.state)) return false;
  if (trigger.to !== undefined && !list(trigger.to).includes(change.to.state)) return false;
  return true;
}

export interface TemplateJob {
  template: string;
  variables: Record<string, unknown>;
  states?: Record<string, { state: string; attributes: Record<string, unknown>; device?: HaDevice }>;
  /** Fail on an undefined name or attribute (Home Assistant only logs it; a test wants to know). */
  strict?: boolean;
  /** `native`: a variable's result as Home Assistant parses it (a list, dict, bool or number as itself). */
  as?: 'text' | 'boolean' | 'native';
  /** now() in the template: an ISO time with its offset (default: the real time). */
  now?: string;
}

export type TemplateResult = { value: unknown } | { error: string };

const EVALUATOR = fileURLToPath(new URL('./ha-templates.py', import.meta.url));

/** Whether python3 has Jinja2 (Debian's python3-jinja2), asked once a worker: 21 files each waited 0.2-0.3 s on a python3 of their own. */
export const hasJinja = (): boolean => pythonHas('jinja2');

/**
 * Whether a test that renders templates is skipped: only where Jinja2 is missing outside CI. In CI
 * (CI set; .ci/run installs python3-jinja2) such a test runs and fails instead of passing unseen.
 */
export function skipWithoutJinja(): boolean {
  return !hasJinja() && !process.env.CI;
}

/**
 * The test file's one Jinja2 process (test/helpers/ha-templates.py), started at the first render and
 * fed one request a line; its answers come back a line each, in order.
 */
class TemplateEngine {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { resolve(line: string): void; reject(err: Error): void }[] = [];
  private buffered = '';
  private stderr = '';

  constructor() {
    this.child = spawn('python3', [EVALUATOR], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 1);
        this.waiting.shift()?.resolve(line);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    const failAll = (err: Error): void => {
      for (const w of this.waiting.splice(0)) w.reject(err);
      if (engine === this) engine = undefined;
    };
    this.child.on('error', failAll);
    this.child.on('exit', (code) => failAll(new Error(`ha-templates.py exited (${code}): ${this.stderr}`)));
    // The test file's worker may end while the engine waits for its next request.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { unref?(): void }).unref?.();
  }

  render(jobs: readonly TemplateJob[]): Promise<TemplateResult[]> {
    return new Promise<string>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jobs })}\n`);
    }).then((line) => (JSON.parse(line) as { results: TemplateResult[] }).results);
  }
}

let engine: TemplateEngine | undefined;

/** Renders the templates with Jinja2 (Debian's python3-jinja2), in the test file's one process. */
export function renderTemplates(jobs: readonly TemplateJob[]): Promise<TemplateResult[]> {
  engine ??= new TemplateEngine();
  return engine.render(jobs);
}

const isTemplate = (v: unknown): v is string => typeof v === 'string' && /\{[{%]/.test(v);

/** What one run of a bound automation does with a state change, up to its first action. */
export interface RunOutcome {
  triggered: boolean;
  /** undefined when it did not trigger. */
  passed?: boolean;
  variables?: Record<string, unknown>;
  errors: string[];
}

/**
 * The trigger side of a bound automation for one state change: does a trigger fire, what do its
 * variables become (templates rendered in order, as Home Assistant does), and do all conditions pass.
 */
export async function runTriggerSide(
  automation: Record<string, unknown>,
  change: StateChange,
  states: TemplateJob['states'] = {},
  now?: string,
): Promise<RunOutcome> {
  const triggers = (automation.triggers ?? []) as Record<string, unknown>[];
  if (!triggers.some((t) => stateTriggerFires(t, change))) return { triggered: false, errors: [] };
  return afterTrigger(automation, { platform: 'state', entity_id: change.to.entity_id, from_state: change.from, to_state: change.to }, states, now);
}

/**
 * The `trigger: template` triggers between two moments (ISO times with their offsets), as Home Assistant runs
 * them: one fires when its template, rendered with the trigger variables, turns true (false at `before`,
 * true at `at`); then the variables and conditions at `at`. `trigger.id` is the trigger's `id`.
 */
export async function runTemplateAt(
  automation: Record<string, unknown>,
  moments: { before: string; at: string },
  states: TemplateJob['states'] = {},
): Promise<RunOutcome & { id?: string }> {
  const variables = (automation.trigger_variables ?? {}) as Record<string, unknown>;
  const triggers = ((automation.triggers ?? []) as Record<string, unknown>[]).filter((t) => t.trigger === 'template');
  for (const t of triggers) {
    const rendered = await renderTemplates(
      [moments.before, moments.at].map((now) => ({ template: String(t.value_template), variables, states, as: 'boolean' as const, now })),
    );
    const errors = rendered.flatMap((r) => ('error' in r ? [`trigger ${String(t.id)}: ${r.error}`] : []));
    if (errors.length > 0) return { triggered: false, errors };
    const [was, is] = rendered.map((r) => 'value' in r && r.value === true);
    if (!was && is)
      return { ...(await afterTrigger(automation, { platform: 'template', id: t.id, now: moments.at }, states, moments.at)), id: String(t.id) };
  }
  return { triggered: false, errors: [] };
}

/** The same for a `trigger: time` at `now` (an ISO time with its offset): its variables and conditions. */
export async function runAt(automation: Record<string, unknown>, now: string, states: TemplateJob['states'] = {}): Promise<RunOutcome> {
  const triggers = (automation.triggers ?? []) as Record<string, unknown>[];
  if (!triggers.some((t) => t.trigger === 'time')) return { triggered: false, errors: [] };
  return afterTrigger(automation, { platform: 'time', now }, states, now);
}

async function afterTrigger(
  automation: Record<string, unknown>,
  trigger: Record<string, unknown>,
  states: TemplateJob['states'],
  now: string | undefined,
): Promise<RunOutcome> {
  const at = now === undefined ? {} : { now };
  // The trigger's variables first, as Home Assistant sets them before the automation's own.
  const variables: Record<string, unknown> = {
    ...((automation.trigger_variables ?? {}) as Record<string, unknown>),
    trigger,
    context: { id: '01JDZIENNIK2MQTTCONTEXT' },
  };
  const errors: string[] = [];
  for (const [name, value] of Object.entries((automation.variables ?? {}) as Record<string, unknown>)) {
    if (!isTemplate(value)) {
      variables[name] = value;
      continue;
    }
    const [result] = await renderTemplates([{ template: value, variables, states, as: 'native', ...at }]);
    if (result && 'error' in result) errors.push(`variable ${name}: ${result.error}`);
    else variables[name] = result?.value;
  }
  const conditions = (automation.conditions ?? []) as Record<string, unknown>[];
  const unsupported = conditions.filter((c) => c.condition !== 'template');
  if (unsupported.length > 0) errors.push(`conditions other than template: ${JSON.stringify(unsupported)}`);
  const results = await renderTemplates(
    conditions
      .filter((c) => c.condition === 'template')
      .map((c) => ({ template: String(c.value_template), variables, states, as: 'boolean' as const, ...at })),
  );
  for (const r of results) if ('error' in r) errors.push(`condition: ${r.error}`);
  return { triggered: true, passed: results.every((r) => 'value' in r && r.value === true), variables, errors };
}

/** Every template in the actions (titles, messages, data), rendered strictly with the run's variables. */
export async function renderActionTemplates(
  automation: Record<string, unknown>,
  variables: Record<string, unknown>,
  states: TemplateJob['states'] = {},
  now?: string,
): Promise<{ path: string; result: TemplateResult }[]> {
  const found: { path: string; template: string }[] = [];
  const walk = (v: unknown, path: string): void => {
    if (isTemplate(v)) found.push({ path, template: v });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(automation.actions, 'actions');
  const results = await renderTemplates(
    found.map((f) => ({ template: f.template, variables, states, strict: true, ...(now === undefined ? {} : { now }) })),
  );
  return found.map((f, i) => ({ path: f.path, result: results[i] as TemplateResult }));
}

/** The state of an MQTT event entity after an event, as Home Assistant's MQTT event platform sets it. */
export function eventEntityState(entityId: string, payload: Record<string, unknown>, at: string): HaState {
  const { event_type: type, ...rest } = payload;
  return { entity_id: entityId, state: at, attributes: { event_types: [type], event_type: type, ...rest } };
}
