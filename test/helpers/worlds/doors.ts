// What each door tells of a run world (drive.ts), read as its reader reads it: Assist's answers (the MCP server over the
// facts the passes kept, as the App builds it), the board's model, the calendar feeds' iCalendar read back by a
// calendar parser, the retained MQTT topics. The properties (properties.ts) compare them with the features' typed values.
import { McpServer } from '../../../src/outputs/mcp/server.js';
import { boardModel, type BoardChild } from '../../../src/outputs/web/board-model.js';
import { CALENDAR_FEED_NAMES, type CalendarFeedName } from '../../../src/rules/calendar-feeds.js';
import { silentLogger } from '../../../src/util/log.js';
import { parseCalendarFeed, type ParsedEvent } from '../ics.js';
import type { ChildRun, WorldRun } from './drive.js';
import type { ChildView } from '../../../src/outputs/web/types.js';
import type { TimetableAsk } from '../../../src/features/timetable/ask.js';
import { warsawDate } from '../../../src/util/time.js';
import { missedOf } from '../reference/marks.js';
import type { Records } from '../reference/portal.js';

/** The read tools, and the arguments each is asked with (a world's whole fortnight is asked of get_day day by day). */
export const ASKED: readonly { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'get_grades', args: {} },
  { tool: 'get_grades', args: { days: 60 } },
  { tool: 'get_upcoming', args: { days: 31 } },
  { tool: 'get_lesson_topics', args: {} },
  { tool: 'get_lesson_topics', args: { days: 60 } },
  { tool: 'get_attendance', args: {} },
  { tool: 'get_behaviour', args: {} },
  { tool: 'get_school', args: {} },
  { tool: 'get_messages', args: {} },
];

export interface Answer {
  tool: string;
  args: Record<string, unknown>;
  text: string;
  isError: boolean;
}

/** Every door of one child, as read. */
export interface ChildDoors {
  run: ChildRun;
  /** The features' typed values as the passes kept them for Assist, by feature name. */
  facts: ReadonlyMap<string, unknown>;
  answers: Answer[];
  /** get_day of today and of each day of the fortnight a plan change touches, by date. */
  days: Map<string, Answer>;
  /** get_lesson_topics of each day the reference finds a lesson missed on (missedDays), by date. */
  topicsOn: Map<string, Answer>;
  board: BoardChild | undefined;
  calendars: Partial<Record<CalendarFeedName, ParsedEvent[]>>;
}

/**
 * The agenda calendar feed's events of one HomeWorks record: its UID names the list and the record's id whole
 * (`agenda-<Id>.<child>@…`), so a homework's or a meeting's event whose UID merely holds the same digits is not it.
 */
export const agendaEventsOf = (c: ChildDoors, id: string): ParsedEvent[] =>
  (c.calendars.agenda ?? []).filter((e) => e.uid.startsWith(`agenda-${id}.`));

export interface WorldDoors {
  run: WorldRun;
  /** The retained MQTT topics as the broker holds them. */
  retained: ReadonlyMap<string, string>;
  children: ChildDoors[];
  /** tools/list's descriptions, joined. */
  toolDescriptions: string;
  /** What a door threw (nothing should). */
  thrown: string[];
}

/**
 * A fault planted in what a door is fed, never in the typed values the properties read (planted.test.ts): the facts
 * Assist answers from, the children it lists, the retained topics. No product code changes for it.
 */
export interface Plant {
  facts?(child: string, facts: ReadonlyMap<string, unknown>): ReadonlyMap<string, unknown>;
  children?(children: readonly ChildView[]): readonly ChildView[];
  retained?(retained: ReadonlyMap<string, string>): ReadonlyMap<string, string>;
}

/** The MCP server as the App builds it over the web snapshot and the facts (no actions: the read tools alone). */
export function mcpServer(run: Pick<WorldRun, 'world' | 'snapshot' | 'facts' | 'now'>, plant: Plant = {}): McpServer {
  return new McpServer({
    source: {
      language: run.world.language,
      now: () => run.now,
      children: () => plant.children?.(run.snapshot.children()) ?? run.snapshot.children(),
      facts: (child) => plant.facts?.(child, run.facts.of(child)) ?? run.facts.of(child),
    },
    version: 'worlds',
    clock: { now: () => run.now },
    log: silentLogger(),
  });
}

let ids = 0;

export async function ask(server: McpServer, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const reply = (await server.answer({ jsonrpc: '2.0', id: ++ids, method: 'tools/call', params: { name: tool, arguments: args } })) as {
    result?: { content: { text: string }[]; isError?: boolean };
    error?: { message: string };
  };
  if (reply.result === undefined) return { tool, args, text: `JSON-RPC error: ${reply.error?.message}`, isError: true };
  return { tool, args, text: reply.result.content.map((c) => c.text).join('\n'), isError: reply.result.isError === true };
}

/**
 * The days get_day is asked of: today and each day of the fortnight whose plan a change or a free day touches (what a
 * world varies; a day as the plan has it is the plan's, the same in every world).
 */
function askedDays(facts: ReadonlyMap<string, unknown>, today: string): string[] {
  const fortnight = (facts.get('timetable') as TimetableAsk | undefined)?.fortnight ?? [];
  return fortnight
    .filter(
      (day) =>
        day.lessons !== undefined &&
        (day.date === today || day.freeDay !== undefined || day.changes.length > 0 || day.lessons.some((l) => l.change !== null)),
    )
    .map((day) => day.date);
}

/**
 * The days get_lesson_topics is asked of: the newest day within the last fortnight the child missed a lesson on, and
 * the newest before it (a parent asks of the day after an absence, or of one long past).
 */
function missedDays(records: Records | undefined): string[] {
  if (records === undefined) return [];
  const fortnight = warsawDate(Date.parse(`${records.today}T12:00:00Z`) - 13 * 86_400_000);
  const days = [...new Set(missedOf(records).map((m) => m.date))].filter((d) => d <= records.today).sort();
  return [days.filter((d) => d >= fortnight).at(-1), days.filter((d) => d < fortnight).at(-1)].filter((d) => d !== undefined);
}

/** Reads every door of every child of a run world. */
export async function readDoors(run: WorldRun, plant: Plant = {}): Promise<WorldDoors> {
  const server = mcpServer(run, plant);
  const thrown: string[] = [];
  const attempt = <T>(what: string, read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      thrown.push(`${what}: ${String(error)}`);
      return undefined;
    }
  };
  const boards = attempt('board', () => boardModel(run.snapshot.children(), run.world.language, run.now))?.children ?? [];
  const children: ChildDoors[] = [];
  for (const child of run.children) {
    const facts = run.facts.of(child.id);
    const answers = await Promise.all(ASKED.map(({ tool, args }) => ask(server, tool, { ...args, child: child.id })));
    const days = new Map<string, Answer>();
    for (const date of askedDays(facts, warsawDate(run.now))) days.set(date, await ask(server, 'get_day', { child: child.id, date }));
    const topicsOn = new Map<string, Answer>();
    for (const date of missedDays(child.records)) topicsOn.set(date, await ask(server, 'get_lesson_topics', { child: child.id, date }));
    const calendars: ChildDoors['calendars'] = {};
    for (const name of CALENDAR_FEED_NAMES) {
      const source = attempt(`calendar ${name}`, () => run.snapshot.calendarFeedSource(child.id, name));
      if (source) calendars[name] = attempt(`calendar ${name} read back`, () => parseCalendarFeed(source.body).events);
    }
    children.push({ run: child, facts, answers, days, topicsOn, board: boards.find((b) => b.id === child.id), calendars });
  }
  const retained = plant.retained?.(run.retained) ?? run.retained;
  return { run, retained, children, toolDescriptions: await listedTools(server), thrown };
}

/** tools/list's descriptions, joined. */
export async function listedTools(server: McpServer): Promise<string> {
  const listed = (await server.answer({ jsonrpc: '2.0', id: ++ids, method: 'tools/list' })) as { result: { tools: { description: string }[] } };
  return listed.result.tools.map((t) => t.description).join('\n');
}
