// The Model Context Protocol server (interface 16.4, 17.1): JSON-RPC 2.0 messages as Streamable HTTP carries them
// (http.ts), answered from what the bridge holds (the tools' dispatch: calls.ts). It speaks the handshake revisions
// 2025-03-26 to 2025-11-25 (initialize first) and the stateless 2026-07-28 (no handshake: each request names its
// version and the client's capabilities in `_meta`, and `server/discover` tells what the server speaks), offers the
// tools capability only, keeps no session (each POST stands alone: Home Assistant opens a new one per call) and
// never opens a stream. Its own few methods rather than the official SDK: the SDK cost the bridge 15.6 MB of
// memory for four methods (docs/ask-the-register.md says why that matters here).
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { oneLine } from '../../util/text.js';
import { ToolCalls, type McpActions, type McpSource } from './calls.js';
import { QUOTED } from './children.js';

export type { McpActions, McpSource } from './calls.js';

/** The revisions opened by `initialize`, oldest first; the newest answers a client that asks for one we do not know. */
export const HANDSHAKE_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const NEWEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[HANDSHAKE_VERSIONS.length - 1] as string;
/** The stateless revision: no handshake, every request carries its version and the client's capabilities in `_meta`. */
export const STATELESS_VERSION = '2026-07-28';
/** Every revision the server speaks, as `server/discover` and an unsupported version's refusal list them. */
export const PROTOCOL_VERSIONS: readonly string[] = [...HANDSHAKE_VERSIONS, STATELESS_VERSION];
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
/** An answer; one to a message whose id could not be read has none (`id: null` before 2025-11-25, as JSON-RPC says). */
export type Reply = { jsonrpc: '2.0'; id?: Id | null; result: unknown } | { jsonrpc: '2.0'; id?: Id | null; error: RpcError };
interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What the transport carried beside a message (Streamable HTTP's headers): the protocol version the client
 * declared, and under 2026-07-28 the method and the name (a tool's) it declared, which must be the body's own.
 */
export interface Declared {
  version?: string | undefined;
  method?: string | undefined;
  name?: string | undefined;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** 2026-07-28: a header disagrees with the body it came with. */
export const HEADER_MISMATCH = -32020;
/** 2026-07-28's code, answered under every revision: a version the server does not speak, `data.supported` the ones it does. */
export const UNSUPPORTED_VERSION = -32022;

/** A batch (2025-03-26 only) holds at most this many messages; each is answered in a turn of the event loop of its own. */
export const MAX_BATCH = 50;

/** The `_meta` keys of 2026-07-28's envelope. */
const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;
/** Under 2026-07-28 the tools' list may be kept this long: it changes with the config or a child's name first learned. */
const TOOLS_TTL_MS = 5 * 60_000;
/** What the server speaks changes only with its version. */
const DISCOVER_TTL_MS = 60 * 60_000;
/** The methods whose `Mcp-Name` header names a parameter of the body, and which one. */
const NAMED: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The tools alone: no resources, prompts, completions or logging; the list never changes while a client holds it. */
const CAPABILITIES = { tools: { listChanged: false } };
const INSTRUCTIONS =
  "A Polish school register (Librus Synergia) as this family's bridge read it. Ask about a child by id or first name: lessons, grades, tests, homework, attendance, behaviour, school, messages. Answers are in the family's language.";

export class McpServer {
  /** The tools as they run: their list, their arguments, the children and the answers (calls.ts). */
  private readonly calls: ToolCalls;

  constructor(private readonly options: McpServerOptions) {
    this.calls = new ToolCalls(options);
  }

  /**
   * Answers one message or a batch: the replies to its requests, undefined when it held only notifications and
   * responses (the HTTP side says 202). `declared`: what the transport carried beside it (its version header).
   */
  async answer(message: unknown, declared: Declared = {}): Promise<Reply | Reply[] | undefined> {
    const { version } = declared;
    if (version !== undefined && !PROTOCOL_VERSIONS.includes(version)) {
      return failure(idOf(message) ?? unreadId(version), UNSUPPORTED_VERSION, 'Unsupported protocol version', {
        supported: PROTOCOL_VERSIONS,
        requested: quoted(version),
      });
    }
    if (!Array.isArray(message)) return this.one(message, declared);
    // JSON-RPC batches were taken out of the protocol in 2025-06-18; a client that names no version speaks 2025-03-26.
    if (version !== undefined && version !== HANDSHAKE_VERSIONS[0]) return failure(unreadId(version), INVALID_REQUEST, `no batches under ${version}`);
    if (message.length === 0) return failure(unreadId(version), INVALID_REQUEST, 'empty batch');
    if (message.length > MAX_BATCH) return failure(unreadId(version), INVALID_REQUEST, `a batch holds at most ${MAX_BATCH} messages`);
    const replies: Reply[] = [];
    for (const part of message) {
      const reply = await this.one(part, { version });
      if (reply !== undefined) replies.push(reply);
      // A pass, /health and the board's answers get their turn between two calls.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return replies.length === 0 ? undefined : replies;
  }

  private async one(message: unknown, declared: Declared): Promise<Reply | undefined> {
    const { version } = declared;
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return failure(unreadId(version), INVALID_REQUEST, 'not a JSON-RPC message');
    const m = message as Partial<Request> & { result?: unknown; error?: unknown };
    // An id of another kind (an object, null, from 2025-06-18 a fraction) is refused: such a message is no notification.
    if ('id' in m && !idTaken(m.id, version)) return failure(unreadId(version), INVALID_REQUEST, idRule(version));
    const id = m.id;
    if (m.jsonrpc !== '2.0') return failure(id ?? unreadId(version), INVALID_REQUEST, 'jsonrpc must be "2.0"');
    if (typeof m.method !== 'string') {
      // A response to a request of ours (we send none): nothing to answer.
      return 'result' in m || 'error' in m ? undefined : failure(id ?? unreadId(version), INVALID_REQUEST, 'no method');
    }
    // A notification (initialized, cancelled): nothing to answer.
    if (id === undefined) return undefined;
    const params = typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params) ? m.params : {};
    return version === STATELESS_VERSION ? this.stateless(id, m.method, params, declared) : this.handshaken(id, m.method, params);
  }

  /** A request of the revisions opened by `initialize` (the session lives in the client: the server keeps none). */
  private async handshaken(id: Id, method: string, params: Record<string, unknown>): Promise<Reply> {
    switch (method) {
      case 'initialize':
        return success(id, this.initialize(params));
      case 'ping':
        return success(id, {});
      case 'server/discover':
        return success(id, this.discover());
      case 'tools/list':
        return success(id, { tools: this.calls.listed() });
      case 'tools/call':
        return this.call(id, params);
      default:
        return failure(id, METHOD_NOT_FOUND, `unknown method ${quoted(method)}`);
    }
  }

  /**
   * A request of 2026-07-28: its `_meta` carries the version and the client's capabilities (else -32602), the
   * version and the method (and a tool's name) as the headers declared them (else -32020); no `initialize`, no
   * `ping`. Every result says it is complete and names the server.
   */
  private async stateless(id: Id, method: string, params: Record<string, unknown>, declared: Declared): Promise<Reply> {
    const meta = params._meta as Record<string, unknown> | undefined;
    if (!isRecord(meta) || typeof meta[META.version] !== 'string' || !isRecord(meta[META.capabilities]))
      return failure(id, INVALID_PARAMS, `params._meta must carry "${META.version}" and "${META.capabilities}"`);
    if (meta[META.version] !== declared.version) return failure(id, HEADER_MISMATCH, `MCP-Protocol-Version is not the request's ${META.version}`);
    if (declared.method !== method) return failure(id, HEADER_MISMATCH, "Mcp-Method is not the request's method");
    const named = NAMED[method] === undefined ? undefined : params[NAMED[method]];
    if (typeof named === 'string' && declared.name !== named) return failure(id, HEADER_MISMATCH, `Mcp-Name is not the request's ${NAMED[method]}`);
    let reply: Reply;
    if (method === 'server/discover') reply = success(id, this.discover());
    else if (method === 'tools/list') reply = success(id, { tools: this.calls.listed(), ttlMs: TOOLS_TTL_MS, cacheScope: 'private' });
    else if (method === 'tools/call') reply = await this.call(id, params);
    else return failure(id, METHOD_NOT_FOUND, `unknown method ${quoted(method)}`);
    if (!('result' in reply)) return reply;
    return success(id, { ...(reply.result as object), resultType: 'complete', _meta: { [META.serverInfo]: this.serverInfo() } });
  }

  private initialize(params: Record<string, unknown>) {
    const asked = params.protocolVersion;
    const known = (HANDSHAKE_VERSIONS as readonly unknown[]).includes(asked);
    return {
      protocolVersion: known ? asked : NEWEST_HANDSHAKE_VERSION,
      capabilities: CAPABILITIES,
      serverInfo: { ...this.serverInfo(), title: 'dziennik2mqtt – school register' },
      instructions: INSTRUCTIONS,
    };
  }

  /** What the server speaks and offers (2026-07-28's `server/discover`, answered under every revision). */
  private discover() {
    return {
      supportedVersions: PROTOCOL_VERSIONS,
      capabilities: CAPABILITIES,
      instructions: INSTRUCTIONS,
      ttlMs: DISCOVER_TTL_MS,
      cacheScope: 'public',
    };
  }

  private serverInfo() {
    return { name: SERVER_NAME, version: this.options.version };
  }

  private async call(id: Id, params: Record<string, unknown>): Promise<Reply> {
    const name = params.name;
    const tool = this.calls.tools().find((t) => t.name === name);
    if (tool === undefined) return failure(id, INVALID_PARAMS, `unknown tool ${typeof name === 'string' ? quoted(name) : ''}`);
    const args =
      typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)
        ? (params.arguments as Record<string, unknown>)
        : {};
    const answer = await this.calls.call(tool, args);
    // A refusal quotes what it was given (an unknown child, subject or recipient): never more than its beginning.
    const text = answer.isError ? quotingAtMost(answer.text, args) : answer.text;
    return success(id, { content: [{ type: 'text', text }], ...(answer.isError ? { isError: true } : {}) });
  }
}

function success(id: Id, result: unknown): Reply {
  return { jsonrpc: '2.0', id, result };
}

/** An error answer with the request's id (undefined: none). */
export function failure(id: Id | null | undefined, code: number, message: string, data?: unknown): Reply {
  return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** The id of an answer to a message whose own could not be read: null before 2025-11-25 (JSON-RPC's), none from it on. */
export function unreadId(version: string | undefined): null | undefined {
  return version === NEWEST_HANDSHAKE_VERSION || version === STATELESS_VERSION ? undefined : null;
}

/** The id of a message, when it is one a reply may carry. */
export function idOf(message: unknown): Id | undefined {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/** A string or a number (JSON-RPC); from 2025-06-18 on a string or an integer (MCP's RequestId). Never null. */
function idTaken(id: unknown, version: string | undefined): boolean {
  if (typeof id === 'string') return true;
  if (typeof id !== 'number' || !Number.isFinite(id)) return false;
  return version === undefined || version === HANDSHAKE_VERSIONS[0] || Number.isInteger(id);
}

function idRule(version: string | undefined): string {
  return version === undefined || version === HANDSHAKE_VERSIONS[0] ? 'id must be a string or a number' : 'id must be a string or an integer';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text given by the client as an error may quote it: on one line, its first few dozen characters. */
function quoted(text: string): string {
  const line = oneLine(text);
  return line.length > QUOTED ? `${line.slice(0, QUOTED)}…` : line;
}

/** A refusal as a tool answers it, every long argument it quotes (an unknown child of 100 KB) cut to its beginning. */
function quotingAtMost(text: string, args: Record<string, unknown>): string {
  let out = text;
  for (const value of Object.values(args)) {
    if (typeof value !== 'string') continue;
    for (const form of new Set([value, value.trim(), oneLine(value)]))
      if (form.length > QUOTED) out = out.split(form).join(`${form.slice(0, QUOTED)}…`);
  }
  return out;
}
