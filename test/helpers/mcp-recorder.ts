// The bridge's web server as Home Assistant reaches it, through a recorder in between: every request goes on to
// the bridge unchanged (its MCP server at `/mcp`, the calendar feeds a Remote Calendar fetches) and its answer
// comes back unchanged, so a test sees what Home Assistant's MCP client asked of the real server and what it
// answered (`calls`), and `public_url` is an address of its own, as a reverse proxy's would be.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeHttp, listenOnLoopback } from './ports.js';

/** The request headers an MCP client or Remote Calendar sends that the bridge reads. */
const FORWARDED = ['authorization', 'content-type', 'accept', 'origin', 'mcp-session-id', 'mcp-protocol-version'];
/** The answer's headers the client reads. */
const RETURNED = ['content-type', 'mcp-session-id', 'www-authenticate'];

export class McpRecorder {
  private server: Server | undefined;
  url = '';
  /** Each request to /mcp: its JSON-RPC method (or the HTTP method without a body) and the bridge's status. */
  readonly calls: { method: string; status: number }[] = [];

  /** `bridge`: the bridge's web server. */
  constructor(private readonly bridge: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = `http://127.0.0.1:${await listenOnLoopback(this.server)}`;
  }

  async stop(): Promise<void> {
    await closeHttp(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method ?? 'GET';
    let answer: Response;
    try {
      answer = await fetch(`${this.bridge}${req.url ?? '/'}`, { method, headers, ...(body.length > 0 ? { body } : {}) });
    } catch {
      res.writeHead(502).end();
      return;
    }
    if (new URL(req.url ?? '/', 'http://recorder').pathname === '/mcp') {
      const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as { method?: string }) : undefined;
      this.calls.push({ method: message?.method ?? method, status: answer.status });
    }
    const back: Record<string, string> = {};
    for (const name of RETURNED) {
      const value = answer.headers.get(name);
      if (value !== null) back[name] = value;
    }
    res.writeHead(answer.status, back);
    res.end(Buffer.from(await answer.arrayBuffer()));
  }
}
