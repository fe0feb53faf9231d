// The Model Context Protocol server (interface 16.4): JSON-RPC 2.0 messages as Streamable HTTP carries them
// (http.ts), answered from what the bridge holds. It speaks the protocol's versions from 2025-03-26 on, offers
// the tools capability only, keeps no session (each POST stands alone: Home Assistant opens a new one per call)
// and never opens a stream. Its own few methods rather than the official SDK: the SDK cost the bridge 15.6 MB
// of memory for four methods (docs/ask-the-register.md has the figures).
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

/** Oldest first; the newest answers a client that asks for one we do not know. */
export const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const NEWEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.length - 1] as string;
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
type Reply = { jsonrpc: '2.0'; id: Id | null; result: unknown } | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string } };

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

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
        return success(id, { tools: this.tools().map(listedTool) });
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
    const tool = this.tools().find((t) => t.name === name);
    if (tool === undefined) return failure(id, INVALID_PARAMS, `unknown tool ${typeof name === 'string' ? oneLine(name).slice(0, 60) : ''}`);
    const args =
      typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)
        ? (params.arguments as Record<string, unknown>)
        : {};
    let answer: ToolAnswer;
    try {
      answer = await this.run(tool.name, checked(tool, args));
    } catch (error) {
      if (error instanceof ToolRefusal) answer = { text: error.message, isError: true };
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

function failure(id: Id | null, code: number, message: string): Reply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
