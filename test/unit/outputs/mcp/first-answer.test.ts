// The MCP server as the running bridge makes it (outputs/mcp/output.ts), asked right after a first start: the web
// server's snapshot holds no child yet (none has published a state), and the tools' descriptions still name each
// configured child by its id (interface 19.1); a child whose id is not known yet (no configured id) is none to name.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MCP_SERVER } from '../../../../src/outputs/mcp/output.js';
import { WEB } from '../../../../src/outputs/web/output.js';
import { WebSnapshot } from '../../../../src/outputs/web/snapshot.js';
import type { MadeOutputs, OutputBridge } from '../../../../src/outputs/output.js';
import { silentLogger } from '../../../../src/util/log.js';

/** tools/list of the MCP server the output makes for a bridge whose runners know `ids`, over `snapshot`. */
async function listed(snapshot: WebSnapshot, ids: readonly (string | undefined)[]): Promise<string[]> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const web = { snapshot, url: undefined, serveMcp: (h: typeof handler) => (handler = h) };
  const made = { of: (kind: unknown) => (kind === WEB ? web : undefined) } as MadeOutputs;
  const children = () => ({ ids, listed: true });
  const bridge = { version: '1.0.0', clock: { now: () => 0 }, log: silentLogger(), children, writes: () => false } as unknown as OutputBridge;
  await MCP_SERVER.make(bridge, made);
  const server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const reply = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { result } = (await reply.json()) as { result: { tools: { description: string }[] } };
    return result.tools.map((t) => t.description);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the tools listed right after a first start', () => {
  it('name every configured child, before its first pass published anything', async () => {
    const snapshot = new WebSnapshot({ language: 'pl', healthy: () => true, now: () => 0 });
    const descriptions = await listed(snapshot, ['zofia', 'jan', undefined]);
    expect(descriptions.length).toBeGreaterThan(5);
    for (const d of descriptions) expect(d).toContain("The family's children: jan (jan), zofia (zofia).");
  });
});
