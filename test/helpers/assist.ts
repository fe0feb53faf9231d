// Home Assistant's MCP integration as a test drives it (test/helpers/assist-client.py: the official MCP Python SDK, a
// Streamable HTTP client and a session of its own per listing and per call), and whether python3 has that SDK.
import { spawn } from 'node:child_process';
import { pythonHas } from './python.js';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('./assist-client.py', import.meta.url));

/** Whether python3 has the MCP SDK (`pip install mcp`). */
export const hasSdk = (): boolean => pythonHas('mcp');

export type AssistCall = { tool: string; arguments?: Record<string, unknown> } | { list: true };
export type AssistAnswer = { text: string; is_error: boolean };

/**
 * The calls, each in a session of its own, as Home Assistant's integration makes them; `oneClient`: the sessions share
 * one HTTP client, where the integration makes one for each (a long loop whose point is not the transport).
 */
export function ask(url: string, calls: readonly AssistCall[], { oneClient = false } = {}): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [CLIENT, url, ...(oneClient ? ['--one-client'] : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as unknown[]) : reject(new Error(`assist-client exited ${code}: ${err.slice(-2000)}`)),
    );
    child.stdin.end(JSON.stringify(calls));
  });
}

/** The tools' answers to calls that list nothing. */
export async function answers(url: string, calls: readonly AssistCall[], options: { oneClient?: boolean } = {}): Promise<AssistAnswer[]> {
  return (await ask(url, calls, options)) as AssistAnswer[];
}
