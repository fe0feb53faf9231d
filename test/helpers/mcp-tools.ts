import { McpServer } from '../../src/outputs/mcp/server.js';
import { silentLogger } from '../../src/util/log.js';
import type { ChildView } from '../../src/outputs/web/types.js';
import type { Language } from '../../src/config/language.js';
import { timetableAsk, type TimetableAsk } from '../../src/features/timetable/ask.js';
import type { SchoolDay } from '../../src/rules/schedule.js';
import { addDays } from '../../src/util/time.js';
/** The MCP server's tools as interface 16.4 names them, in the order the server lists them (send_message only with write_messages). */
export const TOOL_NAMES = [
  'get_day',
  'get_grades',
  'get_upcoming',
  'get_lesson_topics',
  'get_attendance',
  'get_behaviour',
  'get_school',
  'get_messages',
  'open_message',
  'send_message',
];

/** The moment the answers of factsServer are asked at: a Wednesday's first lesson. */
export const ASKED_AT = Date.parse('2026-11-18T09:00:00+01:00');

/** Zofia, the one child of factsServer. */
const ZOFIA: ChildView = { id: 'zofia', name: 'Zofia Kowalska', model: null, online: true, states: new Map(), changedAt: ASKED_AT };

/** The MCP server answering for Zofia from the features' facts given (by feature name), as a pass keeps them. */
export function factsServer(language: Language, facts: Record<string, unknown>): McpServer {
  return new McpServer({
    source: { language, now: () => ASKED_AT, children: () => [ZOFIA], facts: () => new Map(Object.entries(facts)) },
    version: '1.0.0',
    clock: { now: () => ASKED_AT },
    log: silentLogger(),
  });
}

/** A tool's answer: its text, and whether it is a tool error. */
export async function toolAnswer(s: McpServer, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const reply = (await s.answer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })) as {
    result: { content: { text: string }[]; isError?: boolean };
  };
  return { text: reply.result.content.map((c) => c.text).join('\n'), isError: reply.result.isError === true };
}

/** The fortnight from Monday 16.11.2026 of ASKED_AT, no day's lessons read: `day(date)` adds to a day (its changes, a day off). */
export function fortnightOf(day: (date: string) => Partial<SchoolDay> = () => ({})): SchoolDay[] {
  return Array.from({ length: 14 }, (_, i) => {
    const date = addDays('2026-11-16', i);
    return { date, lessons: [], changes: [], freeDay: undefined, start: null, end: null, ...day(date) };
  });
}

/** A school's timetable facts at ASKED_AT (tomorrow a school day), over fortnightOf(), its standing plan not read: `over` changes them. */
export function timetableFacts(over: Partial<TimetableAsk> = {}): TimetableAsk {
  return { ...timetableAsk.unknown, fortnight: fortnightOf(), freeDays: [], nextSchoolDay: '2026-11-19', ...over };
}
