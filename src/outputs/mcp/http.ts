// The MCP server on the web server's `/mcp` (interface 16.4), Streamable HTTP as the protocol's 2025-03-26 and
// later revisions describe it, without streams: a POST carries one JSON-RPC message (or a 2025-03-26 batch) and
// is answered with JSON, or 202 when it held only notifications; a GET asking for a stream (one the server would
// open) and a DELETE (a session to end: there is none) are 405, a browser's GET a line saying what this is. The web server has let the request in already: the token,
// and no foreign browser origin (server.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import { McpServer, PROTOCOL_VERSIONS, type McpServerOptions } from './server.js';

/** A send_message text of 4,000 characters, escaped, fits many times over. */
const MAX_BODY_BYTES = 256 * 1024;

const HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** The web server's handler of `/mcp` (web/server.ts lets a request in first): one MCP server for every request. */
export function mcpHandler(options: McpServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const server = new McpServer(options);
  return (req, res) => answerMcp(req, res, server, options.log);
}

export function answerMcp(req: IncomingMessage, res: ServerResponse, server: McpServer, log: Logger): void {
  // A person who opens the address in a browser (no event stream asked for) learns what it is; an MCP client's GET is 405.
  const accept = String(req.headers.accept ?? '');
  if (req.method === 'GET' && !accept.includes('text/event-stream')) {
    return reply(
      res,
      200,
      { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" },
      '<!doctype html><meta charset="utf-8"><title>dziennik2mqtt MCP</title><p>dziennik2mqtt: the MCP server. Give this address to an MCP client (Home Assistant: Model Context Protocol integration; Claude Desktop). See docs/ask-the-register.md.</p>\n',
    );
  }
  if (req.method !== 'POST') {
    return reply(
      res,
      405,
      { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'POST' },
      'The MCP server takes POST only (no event stream, no session).\n',
    );
  }
  // 2025-06-18 on: each request after initialize names the version agreed; one we never offered is refused.
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return rpcError(res, 400, -32600, `unsupported MCP-Protocol-Version ${version.slice(0, 20)}; supported: ${PROTOCOL_VERSIONS.join(', ')}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES && !refused) {
      refused = true;
      rpcError(res, 413, -32600, 'request too large');
      req.destroy();
    }
    if (!refused) chunks.push(chunk);
  });
  req.on('error', () => undefined);
  req.on('end', () => {
    if (refused) return;
    let message: unknown;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return rpcError(res, 400, -32700, 'the body is not JSON');
    }
    server.answer(message).then(
      (answer) => {
        if (answer === undefined) return reply(res, 202, {}, undefined);
        reply(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(answer));
      },
      (error: unknown) => {
        log.warn({ err: errorText(error) }, 'MCP request failed');
        rpcError(res, 500, -32603, 'internal error');
      },
    );
  });
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  reply(res, status, { 'Content-Type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

function reply(res: ServerResponse, status: number, headers: Record<string, string>, body: string | undefined): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...HEADERS, ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) });
  res.end(body);
}
