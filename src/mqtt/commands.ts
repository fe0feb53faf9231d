// The command router: checks a command's payload and child, runs its one handler (one command at a time
// per child, in arrival order) and turns the outcome into the JSON result published on `/result`.
import { readPayload, scalarField } from '../feature-kit/payload.js';
import { CommandError, type CommandHandler, type CommandRequest } from '../feature-kit/commands.js';
import type { Logger } from '../util/log.js';

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

function errorResult(error: string, transaction: string | undefined): CommandResult {
  return withTransaction({ status: 'error', error }, transaction);
}

function withTransaction(result: CommandResult, transaction: string | undefined): CommandResult {
  return transaction === undefined ? result : { ...result, transaction };
}
