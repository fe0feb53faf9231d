// The routers of what arrives on the bridge's topics. The command router checks a command's payload and
// child, runs its one handler (one command at a time per child, in arrival order) and turns the outcome
// into the JSON result published on `/result`. The request router answers bridge requests as zigbee2mqtt
// has them: `<base>/bridge/request/<name>` answered on `<base>/bridge/response/<name>` with
// `{"status":"ok","data":...}` or `{"status":"error","error":...}`, the request's `transaction` echoed.
// Unknown names and bad payloads get an error and change nothing.
import { CommandError, readPayload, scalarField, type CommandHandler, type CommandRequest } from '../../features/kit/commands.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';

/** Commands waiting for one child beyond this are refused, so a flood cannot queue work without end. */
export const MAX_PENDING_PER_CHILD = 20;

export interface CommandResult {
  status: 'ok' | 'error';
  error?: string;
  transaction?: string;
  [field: string]: unknown;
}

export interface CommandOptions {
  /** The largest payload it takes, in bytes (1 KB when not given). */
  maxBytes?: number;
  /** It only waits (a refresh waiting for its minute): it runs beside the child's other commands, not in their line. */
  concurrent?: boolean;
}

export interface CommandRouterOptions {
  log: Logger;
  /**
   * The commands a child accepts through the catch-all handler (its buttons' command keys), or undefined
   * when the child is not known. Commands registered by name are accepted for every known child.
   */
  commandsOf: (child: string) => ReadonlySet<string> | undefined;
}

export class CommandRouter {
  private readonly handlers = new Map<string, CommandHandler>();
  /** Commands that take a larger payload than MAX_PAYLOAD_BYTES (a message's text), by command. */
  private readonly limits = new Map<string, number>();
  private fallback: CommandHandler | undefined;
  private readonly queues = new Map<string, { tail: Promise<unknown>; pending: number }>();
  private readonly concurrent = new Set<string>();

  constructor(private readonly options: CommandRouterOptions) {}

  register(command: string, handler: CommandHandler, options: CommandOptions = {}): void {
    if (this.handlers.has(command)) throw new Error(`command "${command}" is already registered`);
    this.handlers.set(command, handler);
    if (options.concurrent) this.concurrent.add(command);
    if (options.maxBytes !== undefined) this.limits.set(command, options.maxBytes);
  }

  /** Handles every command a child's buttons send that has no handler of its own. */
  registerFallback(handler: CommandHandler): void {
    this.fallback = handler;
  }

  /** Never rejects: every outcome is a result. */
  handle(child: string, command: string, payload: Buffer): Promise<CommandResult> {
    const parsed = parsePayload(payload, this.limits.get(command));
    if ('error' in parsed) return Promise.resolve(errorResult(parsed.error, parsed.transaction));
    const { transaction } = parsed;

    const commands = this.options.commandsOf(child);
    if (commands === undefined) return Promise.resolve(errorResult(`unknown child "${child}"`, transaction));
    const handler = this.handlers.get(command) ?? (commands.has(command) ? this.fallback : undefined);
    if (handler === undefined) return Promise.resolve(errorResult(`unknown command "${command}"`, transaction));

    const queue = this.queues.get(child) ?? { tail: Promise.resolve(), pending: 0 };
    if (queue.pending >= MAX_PENDING_PER_CHILD) return Promise.resolve(errorResult('busy, try again later', transaction));
    queue.pending++;
    this.queues.set(child, queue);

    const request: CommandRequest = { child, command, payload, ...parsed };
    // A command that only waits (a refresh waiting for its minute) does not hold up the ones after it.
    const run = this.concurrent.has(command) ? this.run(handler, request) : queue.tail.then(() => this.run(handler, request));
    const settled = run.finally(() => {
      queue.pending--;
      if (queue.pending === 0 && this.queues.get(child) === queue) this.queues.delete(child);
    });
    if (!this.concurrent.has(command)) queue.tail = settled;
    return run;
  }

  /** The error result of a command turned away before its router (a retained one), with its transaction when readable. */
  refusal(command: string, payload: Buffer, error: string): CommandResult {
    return errorResult(error, parsePayload(payload, this.limits.get(command)).transaction);
  }

  private async run(handler: CommandHandler, req: CommandRequest): Promise<CommandResult> {
    try {
      const fields = await handler(req);
      return withTransaction({ ...fields, status: 'ok' }, req.transaction);
    } catch (err) {
      if (err instanceof CommandError) return withTransaction({ ...err.fields, status: 'error', error: err.message }, req.transaction);
      // The payload is not logged: it may be anything a user typed.
      this.options.log.error({ err, child: req.child, command: req.command }, 'command failed');
      return errorResult('internal error', req.transaction);
    }
  }
}

type Parsed = { text: string; arg: string; transaction?: string } | { error: string; transaction?: string };

function parsePayload(payload: Buffer, maxBytes?: number): Parsed {
  const read = readPayload(payload, maxBytes);
  if (read.error !== undefined) return { error: read.error };
  if (read.json === undefined) return { text: read.text, arg: read.text };
  const { id, transaction } = read.json;
  const tx = scalar(transaction);
  if (transaction !== undefined && tx === undefined) return { error: '"transaction" must be a string or a number' };
  const arg = scalar(id);
  if (id !== undefined && arg === undefined) return { error: '"id" must be a string or a number', transaction: tx };
  return { text: read.text, arg: arg ?? '', transaction: tx };
}

/** Command results carry the transaction and the id as text. */
function scalar(value: unknown): string | undefined {
  const field = scalarField(value);
  return field === undefined ? undefined : String(field);
}

/** A command's error result, or a bridge request's error answer. */
function errorResult(error: string, transaction: string | number | undefined): { status: 'error'; error: string } {
  return withTransaction({ status: 'error', error }, transaction);
}

function withTransaction<R extends object>(result: R, transaction: string | number | undefined): R {
  return transaction === undefined ? result : { ...result, transaction };
}

export interface BridgeRequest {
  /** The JSON object of the payload, without `transaction`; empty for a payload that is not JSON. */
  fields: Record<string, unknown>;
  transaction?: string | number;
}

/** Resolves to the `data` of the answer; rejects with CommandError for an error the user should read. */
export type RequestHandler = (req: BridgeRequest) => Promise<Record<string, unknown>>;

export interface BridgeResponse {
  status: 'ok' | 'error';
  data?: Record<string, unknown>;
  error?: string;
  transaction?: string | number;
}

export class RequestRouter {
  private readonly handlers = new Map<string, RequestHandler>();

  constructor(private readonly options: { log: Logger }) {}

  register(name: string, handler: RequestHandler): void {
    if (this.handlers.has(name)) throw new Error(`bridge request "${name}" is already registered`);
    this.handlers.set(name, handler);
  }

  /** Never rejects: every outcome is an answer. */
  async handle(name: string, payload: Buffer): Promise<BridgeResponse> {
    const parsed = parse(payload);
    if ('error' in parsed) return errorResult(parsed.error, parsed.transaction);
    const handler = this.handlers.get(name);
    if (!handler) return errorResult(`unknown request "${name}" (known: ${[...this.handlers.keys()].join(', ')})`, parsed.transaction);
    try {
      return withTransaction({ status: 'ok', data: await handler(parsed) }, parsed.transaction);
    } catch (err) {
      if (err instanceof CommandError) return errorResult(err.message, parsed.transaction);
      this.options.log.error({ err: errorText(err), request: name }, 'bridge request failed');
      return errorResult('internal error', parsed.transaction);
    }
  }

  /** The error answer of a request turned away before its handler (a retained one), with its transaction when readable. */
  refusal(payload: Buffer, error: string): BridgeResponse {
    return errorResult(error, parse(payload).transaction);
  }
}

/** Anything that is not a JSON object counts as an empty request (`refresh` may be sent as plain text). */
function parse(payload: Buffer): BridgeRequest | { error: string; transaction?: string | number } {
  const read = readPayload(payload);
  if (read.error !== undefined) return { error: read.error };
  if (read.json === undefined) return { fields: {} };
  const { transaction, ...fields } = read.json;
  const tx = scalarField(transaction);
  if (transaction !== undefined && tx === undefined) return { error: '"transaction" must be a string or a number' };
  return { fields, transaction: tx };
}
