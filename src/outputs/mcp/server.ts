// The Model Context Protocol server (interface 16.4, 17.1): JSON-RPC 2.0 messages as Streamable HTTP carries them
// (http.ts), answered from what the bridge holds. It speaks the handshake revisions 2025-03-26 to 2025-11-25
// (initialize first) and the stateless 2026-07-28 (no handshake: each request names its version and the client's
// capabilities in `_meta`, and `server/discover` tells what the server speaks), offers the tools capability only,
// keeps no session (each POST stands alone: Home Assistant opens a new one per call) and never opens a stream.
// Its own few methods rather than the official SDK: the SDK cost the bridge 15.6 MB of memory for four methods
// (docs/ask-the-register.md has the figures).
import type { Language } from '../../config/language.js';
import type { ChildView } from '../web/types.js';
import type { KeptCalendarFeed } from '../web/calendar-feeds.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText, oneLine } from '../../util/text.js';
import { MCP_TEXT } from '../../i18n/mcp-text.js';
import { listedTool, OPEN_COMMAND, TOOLS, type ToolDef, type ToolProperty } from './tools.js';
import {
  askedOf,
  dateAsked,
  getAttendance,
  getBehaviour,
  getDay,
  getGrades,
  getLessonTopics,
  getMessages,
  getSchool,
  getUpcoming,
  loose,
  openedText,
  ToolRefusal,
  type ToolAnswer,
} from './answers.js';
import { clockAt } from '../../features/screens/shown.js';
import { Confirmations } from './confirmations.js';

/** The revisions opened by `initialize`, oldest first; the newest answers a client that asks for one we do not know. */
export const HANDSHAKE_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const NEWEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[HANDSHAKE_VERSIONS.length - 1] as string;
/** The stateless revision: no handshake, every request carries its version and the client's capabilities in `_meta`. */
export const STATELESS_VERSION = '2026-07-28';
/** Every revision the server speaks, as `server/discover` and an unsupported version's refusal list them. */
export const PROTOCOL_VERSIONS: readonly string[] = [...HANDSHAKE_VERSIONS, STATELESS_VERSION];
export const SERVER_NAME = 'dziennik2mqtt';

/** What the tools read: the web server's snapshot (web/snapshot.ts), never the portal. */
export interface McpSource {
  language: Language;
  now(): number;
  children(): readonly ChildView[];
  keptCalendarFeed?(child: string, name: 'free-days'): KeptCalendarFeed<'free-days'> | undefined;
}

/** What the two tools that act do, through the same path as the command topics (the child's account queue). */
export interface McpActions {
  /** Runs one of a child's commands (`open_message`, `write`) as its topic would; rejects with the refusal. */
  command(child: string, command: string, payload: string): Promise<Record<string, unknown>>;
  /** Whether the config lets this child's account write to teachers (`write_messages: true`). */
  writes(child: string): boolean;
}

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
/** What an error or a refusal quotes of what it was given, at most: a 100 KB argument is not sent back whole. */
const QUOTED = 40;

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
  private readonly confirmations: Confirmations;

  constructor(private readonly options: McpServerOptions) {
    this.confirmations = new Confirmations(options.clock);
  }

  /** The tools as tools/list gives them now: send_message only when some child may write. */
  tools(): ToolDef[] {
    return TOOLS.filter((t) => t.name !== 'send_message' || this.writingOn());
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
        return success(id, { tools: this.tools().map(listedTool) });
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
    else if (method === 'tools/list') reply = success(id, { tools: this.tools().map(listedTool), ttlMs: TOOLS_TTL_MS, cacheScope: 'private' });
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
    const tool = this.tools().find((t) => t.name === name);
    if (tool === undefined) return failure(id, INVALID_PARAMS, `unknown tool ${typeof name === 'string' ? quoted(name) : ''}`);
    const args =
      typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)
        ? (params.arguments as Record<string, unknown>)
        : {};
    let answer: ToolAnswer;
    try {
      answer = await this.run(tool.name, checked(tool, args));
    } catch (error) {
      if (error instanceof ToolRefusal) answer = { text: quotingAtMost(error.message, args), isError: true };
      else {
        this.options.log.warn({ tool: tool.name, err: errorText(error) }, 'MCP tool failed');
        answer = { text: MCP_TEXT[this.options.source.language].failed, isError: true };
      }
    }
    return success(id, { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) });
  }

  private run(name: string, args: Args): Promise<ToolAnswer> | ToolAnswer {
    if (name === OPEN_COMMAND.key) return this.open(args);
    if (name === 'send_message') return this.send(args);
    const asked = this.asked(args.child);
    switch (name) {
      case 'get_day':
        return getDay(asked, dateAsked(args.date, asked.child, clockAt(asked.now), MCP_TEXT[asked.language]));
      case 'get_grades':
        return getGrades(asked, args.subject);
      case 'get_upcoming':
        return getUpcoming(asked, args.days);
      case 'get_lesson_topics':
        return getLessonTopics(asked, args.subject, args.days);
      case 'get_attendance':
        return getAttendance(asked);
      case 'get_behaviour':
        return getBehaviour(asked);
      case 'get_school':
        return getSchool(asked);
      case 'get_messages':
        return getMessages(asked);
      default:
        throw new ToolRefusal(`unknown tool ${name}`);
    }
  }

  /** The child a call names (its id, first or full name), or the only one; a refusal names those there are. */
  private child(given: string | undefined): ChildView {
    const { source } = this.options;
    const w = MCP_TEXT[source.language];
    const children = source.children();
    if (children.length === 0) throw new ToolRefusal(w.noChildren);
    const named = (c: ChildView): string => c.name ?? c.id;
    const names = children.map((c) => `${named(c).split(/\s+/)[0] ?? c.id} (${c.id})`);
    if (given === undefined || given.trim() === '') {
      if (children.length === 1) return children[0] as ChildView;
      throw new ToolRefusal(w.whichChild(names));
    }
    const wanted = loose(given);
    const found =
      children.find((c) => loose(c.id) === wanted) ??
      children.find((c) => loose(named(c)) === wanted) ??
      children.filter((c) => loose(named(c).split(/\s+/)[0] ?? '') === wanted).at(0);
    if (found === undefined) throw new ToolRefusal(w.noSuchChild(given, names));
    return found;
  }

  private asked(given: string | undefined) {
    const { source } = this.options;
    const child = this.child(given);
    return askedOf(child, source.children(), source.keptCalendarFeed?.(child.id, 'free-days')?.content, source.language, source.now());
  }

  private async open(args: Args): Promise<ToolAnswer> {
    const { source, actions } = this.options;
    const w = MCP_TEXT[source.language];
    const child = this.child(args.child);
    const id = (args.id ?? '').trim();
    if (actions === undefined) throw new ToolRefusal(w.notOpened('-'));
    try {
      await actions.command(child.id, OPEN_COMMAND.key, id === '' ? OPEN_COMMAND.payload : id);
    } catch (error) {
      throw new ToolRefusal(w.notOpened(errorText(error)));
    }
    // The command published opened_message before it answered: the snapshot holds the message now.
    const now = source.children().find((c) => c.id === child.id) ?? child;
    return { text: openedText(now, source.language, source.now()) };
  }

  private async send(args: Args): Promise<ToolAnswer> {
    const { source, actions } = this.options;
    const w = MCP_TEXT[source.language];
    const confirm = args.confirm?.trim();
    if (confirm) {
      const draft = this.confirmations.take(confirm);
      if (draft === undefined) throw new ToolRefusal(w.badConfirm);
      if (actions === undefined || !actions.writes(draft.child)) throw new ToolRefusal(w.writeOff(draft.child));
      try {
        await actions.command(draft.child, 'write', JSON.stringify({ to: draft.to, topic: draft.subject, text: draft.text }));
      } catch (error) {
        throw new ToolRefusal(w.notSent(errorText(error).replace(/^not sent: /, '')));
      }
      this.options.log.info({ child: draft.child }, 'MCP: a message was sent after its confirmation');
      return { text: w.sent(draft.to, draft.subject) };
    }
    const child = this.child(args.child);
    const name = (child.name ?? child.id).split(/\s+/)[0] ?? child.id;
    if (actions === undefined || !actions.writes(child.id)) throw new ToolRefusal(w.writeOff(name));
    const [to, subject, text] = [args.to?.trim(), args.subject?.trim(), args.text?.trim()];
    if (!to || !subject || !text) throw new ToolRefusal(w.sendMissing);
    const code = this.confirmations.issue({ child: child.id, to, subject, text });
    return { text: `${w.preview(name, to, subject, code)}\n\n${text}` };
  }

  private writingOn(): boolean {
    const { actions, source } = this.options;
    return actions !== undefined && source.children().some((c) => actions.writes(c.id));
  }
}

/** The arguments as the schemas say, each checked: a wrong type is a refusal naming it. */
type Args = { child?: string; date?: string; subject?: string; days?: number; id?: string; to?: string; text?: string; confirm?: string };

function checked(tool: ToolDef, args: Record<string, unknown>): Args {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(tool.inputSchema.properties) as [string, ToolProperty][]) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    if (property.type === 'integer') {
      const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw new ToolRefusal(`"${key}" must be a whole number.`);
      out[key] = n;
    } else if (property.type === 'string') {
      if (typeof value !== 'string' && typeof value !== 'number') throw new ToolRefusal(`"${key}" must be text.`);
      out[key] = String(value);
    } else if (typeof value === 'boolean') out[key] = value;
  }
  for (const key of tool.inputSchema.required ?? []) if (out[key] === undefined) throw new ToolRefusal(`"${key}" is required.`);
  return out as Args;
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
