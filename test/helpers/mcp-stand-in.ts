// The bridge's web server as Home Assistant reaches it, with `/mcp` answered here: the MCP server (interface
// 16.4) is written beside this work, so its initialize is stood in for, as the protocol has it (Streamable
// HTTP, one JSON-RPC answer as JSON, a session id, the web token as `?key=` or 401). Every other path goes
// on to the bridge's own server (the calendar feeds a Remote Calendar fetches). Once the server is in the
// bridge, a test points public_url at the bridge itself and drops this.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { loadOrCreateToken } from '../../src/outputs/web/token.js';

export class McpStandIn {
  private server: Server | undefined;
  url = '';
  /** Each request to /mcp: its JSON-RPC method (or the HTTP method without a body) and the status answered. */
  readonly calls: { method: string; status: number }[] = [];

  /** `bridge`: the bridge's web server; `dataDir`: where its token is (read at each request, as a rotation changes it). */
  constructor(
    private readonly bridge: string,
    private readonly dataDir: string,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/mcp') {
      const answer = await fetch(`${this.bridge}${url.pathname}${url.search}`, { method: req.method ?? 'GET' });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
      return;
    }
    const token = (await loadOrCreateToken(this.dataDir)).value;
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as { id?: number; method?: string }) : undefined;
    const answer = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ method: message?.method ?? req.method ?? '', status });
      res.writeHead(status, { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (url.searchParams.get('key') !== token && bearer !== token) return answer(401, { error: 'unauthorized' });
    if (req.method === 'DELETE') return answer(200);
    if (message?.method === 'initialize') {
      const result = {
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'dziennik2mqtt', version: '0' },
      };
      return answer(200, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': randomUUID() });
    }
    if (message?.id === undefined) return answer(202);
    return answer(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
