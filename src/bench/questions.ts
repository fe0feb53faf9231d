// A parent's ten questions to Assist on a running school day (performance.md, fourteenth round), asked as Home
// Assistant's MCP integration asks them: a JSON-RPC tools/call to the bridge's /mcp, each on its own. Most are
// answered from what the bridge holds; a day four weeks back, one three weeks ahead and last year's messages are
// read from the school then (interface 18.2), and a question asked again is answered from the copy kept.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpUrl } from '../outputs/web/token.js';

/** One question at its moment: a read tool and its arguments. */
export interface AssistQuestion {
  at: number;
  tool: string;
  arguments: Record<string, unknown>;
}

const at = (hhmm: string): number => Date.parse(`2026-11-16T${hhmm}:00+01:00`);

/** Ten questions on Monday 16 November 2026, from the morning to the evening. */
export const TEN_QUESTIONS: readonly AssistQuestion[] = [
  { at: at('07:30'), tool: 'get_day', arguments: { date: 'tomorrow' } },
  { at: at('08:05'), tool: 'get_grades', arguments: { days: 300 } },
  { at: at('12:40'), tool: 'get_upcoming', arguments: { days: 60, subject: 'mat' } },
  { at: at('14:10'), tool: 'get_lesson_topics', arguments: { date: '2026-10-14' } },
  { at: at('15:20'), tool: 'get_day', arguments: { date: '2026-10-14' } },
  { at: at('16:00'), tool: 'get_day', arguments: { date: '2026-12-09' } },
  { at: at('17:30'), tool: 'get_messages', arguments: { archive: true } },
  { at: at('18:45'), tool: 'get_attendance', arguments: {} },
  { at: at('19:10'), tool: 'get_day', arguments: { date: '2026-10-14' } },
  { at: at('20:30'), tool: 'get_behaviour', arguments: {} },
];

/** Asks one question of the bridge's MCP server on `port` (its key from data_dir); the answer's text, or why it failed. */
export async function askAssist(port: number, dataDir: string, question: AssistQuestion): Promise<string> {
  const token = (await readFile(join(dataDir, 'http-token'), 'utf8')).trim();
  const response = await fetch(mcpUrl(`http://127.0.0.1:${port}`, token), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: question.tool, arguments: question.arguments } }),
  });
  const answer = (await response.json()) as { result?: { content?: { text?: string }[] }; error?: { message?: string } };
  return answer.result?.content?.[0]?.text ?? `error: ${answer.error?.message ?? response.status}`;
}
