// The Model Context Protocol server (interface 16.4): JSON-RPC 2.0 messages as Streamable HTTP carries them
// (http.ts), answered from what the bridge holds. It speaks the protocol's versions from 2025-03-26 on, offers
// the tools capability only, keeps no session (each POST stands alone: Home Assistant opens a new one per call)
// and never opens a stream. Its own few methods rather than the official SDK: the SDK cost the bridge 15.6 MB
// of memory for four methods (docs/ask-the-register.md has the figures).
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { oneLine } from '../../util/text.js';
import { ToolCalls, type McpActions, type McpSource } from './calls.js';

export type { McpActions, McpSource } from './calls.js';

/** Oldest first; the newest answers a client that asks for one we do not know. */
export const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const NEWEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.length - 1] as string;
export const SERVER_NAME = 'dziennik2mqtt';

export interface McpServerOptions {
  source: McpSource;
  /** None (a test of the read tools alone): open_message and send_message answer with a tool error. */
  actions?: McpActions;
  version: string;
  clock: Pick<Clock, 'now'>;
  log: Logger;
}

type Id = string | number;
interface Request {
  jsonrpc: '2.0';
  id?: Id;
  method: string;
  params?: Record<string, unknown>;
}
type Reply = { jsonrpc: '2.0'; id: Id | null; result: unknown } | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string } };

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

export class McpServer {
  /** The tools as they run: their list, their arguments, the children and the answers (calls.ts). */
  private readonly calls: ToolCalls;

  constructor(private readonly options: McpServerOptions) {
    this.calls = new ToolCalls(options);
  }

  /**
   * Answers one message or a batch (2025-03-26 allows one): the replies to its requests, undefined when it
   * held only notifications and responses (the HTTP side says 202).
   */
  async answer(message: unknown): Promise<Reply | Reply[] | undefined> {
    if (Array.isArray(message)) {
      if (message.length === 0) return failure(null, INVALID_REQUEST, 'empty batch');
      const replies = (await Promise.all(message.map((m) => this.one(m)))).filter((r): r is Reply => r !== undefined);
      return replies.length === 0 ? undefined : replies;
    }
    return this.one(message);
  }

  private async one(message: unknown): Promise<Reply | undefined> {
    if (typeof message !== 'object' || message === null) return failure(null, INVALID_REQUEST, 'not a JSON-RPC message');
    const m = message as Partial<Request> & { result?: unknown; error?: unknown };
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
    if (m.jsonrpc !== '2.0') return failure(id ?? null, INVALID_REQUEST, 'jsonrpc must be "2.0"');
    // A response to a request of ours (we send none) or a notification (initialized, cancelled): nothing to answer.
    if (typeof m.method !== 'string') return undefined;
    if (id === undefined) return undefined;
    const params = typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params) ? m.params : {};
    switch (m.method) {
      case 'initialize':
        return success(id, this.initialize(params));
      case 'ping':
        return success(id, {});
      case 'tools/list':
        return success(id, { tools: this.calls.listed() });
      case 'tools/call':
        return this.call(id, params);
      default:
        return failure(id, METHOD_NOT_FOUND, `unknown method ${oneLine(m.method).slice(0, 60)}`);
    }
  }

  private initialize(params: Record<string, unknown>) {
    const asked = params.protocolVersion;
    const known = (PROTOCOL_VERSIONS as readonly unknown[]).includes(asked);
    return {
      protocolVersion: known ? asked : NEWEST_PROTOCOL_VERSION,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: SERVER_NAME, title: 'dziennik2mqtt – school register', version: this.options.version },
      instructions:
        "A Polish school register (Librus Synergia) as this family's bridge read it. Ask about a child by id or first name: lessons, grades, tests, homework, attendance, behaviour, school, messages. Answers are in the family's language.",
    };
  }

  private async call(id: Id, params: Record<string, unknown>): Promise<Reply> {
    const name = params.name;
    const tool = this.calls.tools().find((t) => t.name === name);
    if (tool === undefined) return failure(id, INVALID_PARAMS, `unknown tool ${typeof name === 'string' ? oneLine(name).slice(0, 60) : ''}`);
    const args =
      typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)
        ? (params.arguments as Record<string, unknown>)
        : {};
    const answer = await this.calls.call(tool, args);
    return success(id, { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) });
  }
}

function success(id: Id, result: unknown): Reply {
  return { jsonrpc: '2.0', id, result };
}

function failure(id: Id | null, code: number, message: string): Reply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
