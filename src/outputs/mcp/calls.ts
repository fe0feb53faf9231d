// The MCP server's tools as they run (interfaces 16.4, 17.1): the tools listed for this bridge (descriptions naming
// its children), a call's arguments checked, the children it names, each child's answer from what the bridge holds
// (answers.ts), and the two tools that act: open_message through the child's command, send_message in two steps,
// its recipient resolved to a person before a preview and a code exist.
import type { Language } from '../../config/language.js';
import type { ChildView } from '../web/types.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import { maskSecrets } from '../../util/redact.js';
import { MCP_TEXT, type McpText } from '../../i18n/mcp-text.js';
import { AskRefusal } from '../../features/screens/ask.js';
import { boardModel } from '../web/board-model.js';
import { listedTool, OPEN_COMMAND, TOOLS, type ToolDef, type ToolProperty } from './tools.js';
import {
  capped,
  dayDates,
  getDay,
  getOther,
  getUpcoming,
  joinedAnswers,
  openedText,
  reachOf,
  recipientOf,
  type Asked,
  type Question,
  type ToolAnswer,
} from './answers.js';
import type { Want } from '../../engine/resource.js';
import { ON_DEMAND_LIMITS, type OnDemandOutcome } from '../../engine/on-demand.js';
import type { ReachAsked } from '../../features/screens/ask.js';
import { wallTime } from '../../util/time.js';
import { childrenNamed, firstName, oneChild, QUOTED } from './children.js';
import { Confirmations } from './confirmations.js';

/** What the tools read: the web server's snapshot of each child (web/snapshot.ts) and the features' facts for Assist (facts.ts), never the portal. */
export interface McpSource {
  language: Language;
  now(): number;
  children(): readonly ChildView[];
  /** A child's facts for Assist, by feature name (none before its first pass). */
  facts(child: string): ReadonlyMap<string, unknown>;
}

/** What the two tools that act do, through the same path as the command topics (the child's account queue), and the reads a question needs. */
export interface McpActions {
  /** Runs one of a child's commands (`open_message`, `write`) as its topic would; rejects with the refusal. */
  command(child: string, command: string, payload: string): Promise<Record<string, unknown>>;
  /**
   * Reads on demand, in the child's queue, what a question needs that the bridge does not hold (interface 18.2: a week of
   * the school year, a past year's mailbox); the features compute from it before it resolves. None: the read tools
   * answer from what the bridge holds.
   */
  reach?(child: string, wants: readonly Want[]): Promise<OnDemandOutcome>;
  /** Whether the config lets this child's account write to teachers (`write_messages: true`). */
  writes(child: string): boolean;
}

export interface ToolCallsOptions {
  source: McpSource;
  /** None (a test of the read tools alone): open_message and send_message answer with a tool error. */
  actions?: McpActions;
  clock: Pick<Clock, 'now'>;
  log: Logger;
}

/** The arguments as the schemas say, each checked: a wrong type is a refusal naming it. */
type Args = Question & { child?: string; id?: string; to?: string; text?: string; confirm?: string };

/** The read tools whose question may need what the bridge does not hold, and what of it they ask (interface 18.2). */
const REACHING: Record<string, (asked: Asked, q: Question, language: Language, now: number) => ReachAsked | undefined> = {
  get_day: (asked, q, language, now) => ({ tool: 'day', dates: dayDates(asked, q, language, now) }),
  get_messages: (_asked, q) => (q.archive === true ? { tool: 'messages', archive: true } : undefined),
};

/** The heading each read tool's answer has, besides get_day's (the date) and get_upcoming's (the span). */
const OTHERS = {
  get_grades: 'grades',
  get_lesson_topics: 'topics',
  get_attendance: 'attendance',
  get_behaviour: 'behaviour',
  get_school: 'school',
  get_messages: 'messages',
} as const;

export class ToolCalls {
  private readonly confirmations: Confirmations;

  constructor(private readonly options: ToolCallsOptions) {
    this.confirmations = new Confirmations(options.clock);
  }

  /** The tools as tools/list gives them now: send_message only when some child may write; each description naming the children. */
  tools(): ToolDef[] {
    return TOOLS.filter((t) => t.name !== 'send_message' || this.writingOn());
  }

  listed() {
    const names = this.children().map((c) => `${firstName(c)} (${c.id})`);
    return this.tools().map((t) => listedTool(t, names));
  }

  /** A call's answer, capped as every one is; a refusal a person can act on as a tool error (the server cuts what it quotes), any other failure logged. */
  async call(tool: ToolDef, args: Record<string, unknown>): Promise<ToolAnswer> {
    const w = MCP_TEXT[this.options.source.language];
    try {
      const answer = await this.run(tool.name, checked(tool, args, w));
      // What the school wrote is data: a secret the bridge holds, had it come back in it, goes masked (interface 18.4).
      return { ...answer, text: capped(maskSecrets(answer.text), w) };
    } catch (error) {
      if (error instanceof AskRefusal) return { text: error.message, isError: true };
      this.options.log.warn({ tool: tool.name, err: errorText(error) }, 'MCP tool failed');
      return { text: w.failed, isError: true };
    }
  }

  private async run(name: string, args: Args): Promise<ToolAnswer> {
    if (name === OPEN_COMMAND.key) return this.open(args);
    if (name === 'send_message') return this.send(args);
    const { source } = this.options;
    const [language, now] = [source.language, source.now()];
    const answer = (asked: Asked): string => {
      if (name === 'get_day') return getDay(asked, args, language, now);
      if (name === 'get_upcoming') return getUpcoming(asked, args, language, now);
      const tool = OTHERS[name as keyof typeof OTHERS];
      if (tool === undefined) throw new AskRefusal(`unknown tool ${name}`);
      return getOther(tool, MCP_TEXT[language].titles[tool], asked, args, language, now);
    };
    const asked = await this.reached(this.asked(childrenNamed(args.child, this.children(), MCP_TEXT[language])), name, args);
    return { text: joinedAnswers(asked.map(answer)) };
  }

  /**
   * Each child as the question finds it once what it needs that the bridge did not hold is read (interface 18.2): its
   * facts anew, with a note that the school was asked just now, or when it can be asked again. One child after another:
   * each reads in its own queue.
   */
  private async reached(asked: readonly Asked[], tool: string, args: Args): Promise<Asked[]> {
    const { actions, source } = this.options;
    const question = REACHING[tool];
    if (actions?.reach === undefined || question === undefined) return [...asked];
    const out: Asked[] = [];
    for (const one of asked) {
      const reach = question(one, args, source.language, source.now());
      const wants = reach === undefined ? [] : reachOf(one, reach);
      if (wants.length === 0) {
        out.push(one);
        continue;
      }
      const outcome = await actions.reach(one.child.id, wants);
      const note = reachNote(outcome, MCP_TEXT[source.language]);
      out.push({ ...one, facts: source.facts(one.child.id), ...(note === undefined ? {} : { note }) });
    }
    return out;
  }

  /** The children in the board's order, whatever order their first passes ended in. */
  private children(): ChildView[] {
    return [...this.options.source.children()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** What the read tools are given of each child: its name and warning as its board card has them, its facts. */
  private asked(children: readonly ChildView[]): Asked[] {
    const { source } = this.options;
    const cards = boardModel(source.children(), source.language, source.now()).children;
    return children.map((child) => {
      const card = cards.find((c) => c.id === child.id);
      return { child, name: card?.name ?? firstName(child), warning: card?.warning ?? null, facts: source.facts(child.id) };
    });
  }

  private async open(args: Args): Promise<ToolAnswer> {
    const { source, actions, log } = this.options;
    const w = MCP_TEXT[source.language];
    const child = oneChild(args.child, this.children(), source.language);
    const id = (args.id ?? '').trim();
    if (actions === undefined) throw new AskRefusal(w.notOpened(id.slice(0, QUOTED)));
    try {
      await actions.command(child.id, OPEN_COMMAND.key, id === '' ? OPEN_COMMAND.payload : id);
    } catch (error) {
      log.info({ child: child.id, err: errorText(error) }, 'MCP: a message could not be opened');
      throw new AskRefusal(w.notOpened(id.slice(0, QUOTED)));
    }
    // The command kept the opened message for Assist before it answered.
    const [asked] = this.asked([child]);
    return { text: (asked && openedText(asked, source.language, source.now())) ?? w.failed };
  }

  private async send(args: Args): Promise<ToolAnswer> {
    const { source, actions, log } = this.options;
    const w = MCP_TEXT[source.language];
    const confirm = args.confirm?.trim();
    if (confirm) {
      const draft = this.confirmations.take(confirm);
      if (draft === undefined) throw new AskRefusal(w.badConfirm);
      if (actions === undefined || !actions.writes(draft.child)) throw new AskRefusal(w.writeOff(draft.child));
      try {
        await actions.command(draft.child, 'write', JSON.stringify({ to: draft.to, topic: draft.subject, text: draft.text }));
      } catch (error) {
        log.info({ child: draft.child, err: errorText(error) }, 'MCP: a confirmed message was not sent');
        throw new AskRefusal(w.notSent(notSentWhy(error, w)));
      }
      log.info({ child: draft.child }, 'MCP: a message was sent after its confirmation');
      return { text: w.sent(draft.person, draft.subject) };
    }
    const child = oneChild(args.child, this.children(), source.language);
    const name = firstName(child);
    if (actions === undefined || !actions.writes(child.id)) throw new AskRefusal(w.writeOff(name));
    const [to, subject, text] = [args.to?.trim(), args.subject?.trim(), args.text?.trim()];
    if (!to || !subject || !text) throw new AskRefusal(w.sendMissing);
    // The recipient is a person before anything is previewed: an unknown one makes no code.
    const [asked] = this.asked([child]);
    const recipient = asked === undefined ? null : recipientOf(asked, to);
    if (recipient === null) throw new AskRefusal(w.recipientsNotRead(name));
    const quoted = to.slice(0, QUOTED);
    if ('refused' in recipient)
      throw new AskRefusal(
        recipient.refused === 'ambiguous' ? w.ambiguousRecipient(quoted, recipient.options) : w.unknownRecipient(quoted, recipient.options),
      );
    const code = this.confirmations.issue({ child: child.id, to: recipient.option, person: recipient.person, subject, text });
    return { text: `${w.preview(name, recipient.person, subject, code)}\n\n${text}` };
  }

  private writingOn(): boolean {
    const { actions, source } = this.options;
    return actions !== undefined && source.children().some((c) => actions.writes(c.id));
  }
}

/** What asking the school did, said under the answer's heading: read just now, the hour's limit reached (until when), a read that failed. */
function reachNote(outcome: OnDemandOutcome, w: McpText): string | undefined {
  if (outcome.until !== undefined) return w.reachSpent(ON_DEMAND_LIMITS.perHour, wallTime(outcome.until).time.slice(0, 5));
  const lines = [
    ...(outcome.read > 0 && outcome.failed === undefined ? [w.readNow] : []),
    ...(outcome.failed === undefined ? [] : [w.reachFailed]),
    ...(outcome.left > 0 ? [w.reachLeft(outcome.left)] : []),
  ];
  return lines.length === 0 ? undefined : lines.join(' ');
}

/** Why the send guard refused, in the family's words (its code; any other: the bridge logged it). */
function notSentWhy(error: unknown, w: McpText): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  return code in w.notSentWhy ? w.notSentWhy[code as keyof McpText['notSentWhy']] : w.notSentWhy.other;
}

function checked(tool: ToolDef, args: Record<string, unknown>, w: McpText): Args {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(tool.inputSchema.properties) as [string, ToolProperty][]) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    if (property.type === 'integer') {
      const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw new AskRefusal(w.badNumber(key));
      out[key] = n;
    } else if (property.type === 'string') {
      if (typeof value !== 'string' && typeof value !== 'number') throw new AskRefusal(w.badText(key));
      out[key] = String(value);
    } else if (typeof value === 'boolean') out[key] = value;
  }
  for (const key of tool.inputSchema.required ?? []) if (out[key] === undefined) throw new AskRefusal(w.required(key));
  return out as Args;
}
