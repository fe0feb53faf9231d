// The MCP server on the web server's `/mcp` (interface 16.4, 17.1), Streamable HTTP as the protocol's 2025-03-26
// and later revisions describe it, without streams: a POST carries one JSON-RPC message (or a 2025-03-26 batch)
// and is answered with JSON, or 202 when it held only notifications; a GET asking for a stream (one the server
// would open) and a DELETE (a session to end: there is none) are 405, a browser's GET a line saying what this is.
// The web server has let the request in already: its Host, no foreign browser origin, the token (server.ts).
// Every error answer carries the request's id: the body is read before anything is refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import {
  failure,
  HEADER_MISMATCH,
  idOf,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  McpServer,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  STATELESS_VERSION,
  UNSUPPORTED_VERSION,
  unreadId,
  type Declared,
  type McpServerOptions,
  type Reply,
} from './server.js';

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
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES && !refused) {
      refused = true;
      rpcError(res, 413, failure(unreadId(declaredBy(req).version), INVALID_REQUEST, 'request too large'));
      req.destroy();
    }
    if (!refused) chunks.push(chunk);
  });
  req.on('error', () => undefined);
  req.on('end', () => {
    if (refused) return;
    const declared = declaredBy(req);
    let message: unknown;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return rpcError(res, 400, failure(unreadId(declared.version), PARSE_ERROR, 'the body is not JSON'));
    }
    server.answer(message, declared).then(
      (answer) => {
        if (answer === undefined) return reply(res, 202, {}, undefined);
        reply(res, statusOf(answer, declared.version === STATELESS_VERSION), { 'Content-Type': 'application/json' }, JSON.stringify(answer));
      },
      (error: unknown) => {
        log.warn({ err: errorText(error) }, 'MCP request failed');
        rpcError(res, 500, failure(idOf(message) ?? unreadId(declared.version), INTERNAL_ERROR, 'internal error'));
      },
    );
  });
}

/** The version, method and name the request's headers declare (Mcp-Name as written, or its `=?base64?...?=` form decoded). */
function declaredBy(req: IncomingMessage): Declared {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' ? value.trim() : undefined;
  };
  const name = header('mcp-name');
  const encoded = name === undefined ? undefined : /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(name)?.[1];
  return {
    version: header('mcp-protocol-version'),
    method: header('mcp-method'),
    name: encoded === undefined ? name : Buffer.from(encoded, 'base64').toString('utf8'),
  };
}

/**
 * The HTTP status of an answer. Under 2026-07-28 an unknown method is 404 and every other refusal 400 (a client
 * tells a server of that revision by them); before it a refusal of the message itself is 400 and the JSON-RPC
 * errors of a method (unknown, its parameters) come with 200, as ever.
 */
function statusOf(answer: Reply | Reply[], stateless: boolean): number {
  if (Array.isArray(answer) || !('error' in answer)) return 200;
  const { code } = answer.error;
  if (code === INTERNAL_ERROR) return 500;
  if (stateless) return code === METHOD_NOT_FOUND ? 404 : 400;
  return [PARSE_ERROR, INVALID_REQUEST, UNSUPPORTED_VERSION, HEADER_MISMATCH].includes(code) ? 400 : 200;
}

function rpcError(res: ServerResponse, status: number, answer: Reply): void {
  reply(res, status, { 'Content-Type': 'application/json' }, JSON.stringify(answer));
}

function reply(res: ServerResponse, status: number, headers: Record<string, string>, body: string | undefined): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...HEADERS, ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) });
  res.end(body);
}
