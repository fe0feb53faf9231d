// The MCP server's protocol over the web server (interface 17.1), as a client sees it on the wire: the stateless
// 2026-07-28 beside the handshake revisions (server/discover, the `_meta` envelope and its headers, -32022 with
// the versions it speaks), the request's id in every error, batches only under 2025-03-26 and at most 50, an id
// that is no string nor integer refused, a batch that leaves the event loop to others between its calls, and a
// refusal that quotes a few dozen characters of a 100 KB argument.
import { afterEach, describe, expect, it } from 'vitest';
import { mcpHandler } from '../../../../src/outputs/mcp/http.js';
import { MAX_BATCH, McpServer, PROTOCOL_VERSIONS } from '../../../../src/outputs/mcp/server.js';
import { startWebServer, type WebServer } from '../../../../src/outputs/web/server.js';
import { silentLogger } from '../../../../src/util/log.js';
import { freePort } from '../../../helpers/ports.js';
import { HandData, send } from '../../../helpers/web.js';

const TOKEN = 'Mcp-protocol-token_0123456789abcdefXYZ';
const STATELESS = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
};

let server: WebServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function options(data: HandData) {
  return {
    source: { language: data.language, now: () => data.clock, children: () => data.children(), facts: () => new Map() },
    version: '1.2.3',
    clock: { now: () => 0 },
    log: silentLogger(),
  };
}

async function start(): Promise<number> {
  const data = new HandData();
  data.setChild('ania');
  data.setChild('jan');
  server = await startWebServer({
    port: await freePort(),
    host: '127.0.0.1',
    routes: [],
    data,
    token: TOKEN,
    log: silentLogger(),
    mcp: mcpHandler(options(data)),
  });
  return server.port;
}

/** One JSON-RPC answer as the tests read it. */
interface RpcAnswer {
  id?: unknown;
  result?: { tools?: { name: string }[]; content?: { text: string }[]; isError?: boolean };
  error?: { code: number; message: string };
}

/** A POST to /mcp with the token as a bearer: the status and the JSON answered (undefined: no body; a batch's: an array). */
async function post(port: number, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: RpcAnswer }> {
  const answer = await send(port, '/mcp', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: answer.status, json: answer.body === '' ? undefined : JSON.parse(answer.body) };
}

/** A 2026-07-28 request with its headers as a conforming client sends them. */
function stateless(port: number, id: unknown, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return post(
    port,
    { jsonrpc: '2.0', id, method, params: { _meta: META, ...params } },
    { 'mcp-protocol-version': STATELESS, 'mcp-method': method, ...name, ...headers },
  );
}

describe('the MCP server, 2026-07-28', () => {
  it('tells what it speaks by server/discover, and answers tools/list and a call with the envelope of that revision', async () => {
    const port = await start();
    const discover = await stateless(port, 'd-1', 'server/discover');
    expect(discover).toMatchObject({
      status: 200,
      json: {
        id: 'd-1',
        result: {
          resultType: 'complete',
          supportedVersions: ['2025-03-26', '2025-06-18', '2025-11-25', STATELESS],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'dziennik2mqtt', version: '1.2.3' } },
          cacheScope: 'public',
        },
      },
    });
    const list = await stateless(port, 2, 'tools/list');
    expect(list.json.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: expect.any(Number) });
    expect(list.json.result?.tools?.map((t) => t.name)).toContain('get_day');
    const call = await stateless(port, 3, 'tools/call', { name: 'get_school', arguments: { child: 'ania' } });
    expect(call.json.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text' }],
      _meta: { 'io.modelcontextprotocol/serverInfo': {} },
    });
    // The handshake is not of this revision: 404 and method not found, as for any method the server does not have.
    for (const method of ['initialize', 'ping', 'prompts/list', 'resources/subscribe']) {
      expect(await stateless(port, 4, method), method).toMatchObject({ status: 404, json: { id: 4, error: { code: -32601 } } });
    }
  });

  it('refuses a request without its envelope (-32602), one whose headers and body disagree (-32020), a version it does not speak (-32022), each with its id', async () => {
    const port = await start();
    const bare = (id: number, meta: Record<string, unknown>) =>
      post(
        port,
        { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } },
        { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/list' },
      );
    expect(
      await post(port, { jsonrpc: '2.0', id: 101, method: 'tools/list' }, { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/list' }),
    ).toMatchObject({ status: 400, json: { id: 101, error: { code: -32602 } } });
    expect(await bare(102, { 'io.modelcontextprotocol/clientCapabilities': {} })).toMatchObject({
      status: 400,
      json: { id: 102, error: { code: -32602 } },
    });
    expect(await bare(103, { 'io.modelcontextprotocol/protocolVersion': STATELESS })).toMatchObject({
      status: 400,
      json: { id: 103, error: { code: -32602 } },
    });
    // clientInfo is a SHOULD: a request without it is served.
    expect((await bare(104, { 'io.modelcontextprotocol/protocolVersion': STATELESS, 'io.modelcontextprotocol/clientCapabilities': {} })).status).toBe(
      200,
    );

    expect(await stateless(port, 201, 'tools/list', {}, { 'mcp-method': 'prompts/list' })).toMatchObject({
      status: 400,
      json: { id: 201, error: { code: -32020 } },
    });
    expect(await stateless(port, 202, 'tools/call', { name: 'get_day', arguments: {} }, { 'mcp-name': 'get_school' })).toMatchObject({
      status: 400,
      json: { id: 202, error: { code: -32020 } },
    });
    // A name carried in the header's base64 form is the same name.
    const encoded = `=?base64?${Buffer.from('get_school').toString('base64')}?=`;
    expect((await stateless(port, 203, 'tools/call', { name: 'get_school', arguments: { child: 'ania' } }, { 'mcp-name': encoded })).status).toBe(
      200,
    );
    const mismatch = await post(
      port,
      { jsonrpc: '2.0', id: 204, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } },
      { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/list' },
    );
    expect(mismatch).toMatchObject({ status: 400, json: { id: 204, error: { code: -32020 } } });

    const unknown = await stateless(port, 'u-1', 'tools/list', {}, { 'mcp-protocol-version': '2099-01-01' });
    expect(unknown).toEqual({
      status: 400,
      json: {
        jsonrpc: '2.0',
        id: 'u-1',
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: PROTOCOL_VERSIONS, requested: '2099-01-01' } },
      },
    });
  });
});

describe('the MCP server, every revision', () => {
  it('answers an unsupported version with the request’s id, also under a handshake revision', async () => {
    const port = await start();
    const answer = await post(port, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'mcp-protocol-version': '2024-11-05' });
    expect(answer).toMatchObject({
      status: 400,
      json: { id: 7, error: { code: -32022, data: { supported: PROTOCOL_VERSIONS, requested: '2024-11-05' } } },
    });
  });

  it('takes a batch under 2025-03-26 only, of at most 50 messages; refuses it from 2025-06-18 on', async () => {
    const port = await start();
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const batch = Array.from({ length: MAX_BATCH }, (_, i) => ping(i));
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
      const taken = await post(port, batch, headers);
      expect(taken.status).toBe(200);
      expect((taken.json as unknown as RpcAnswer[]).map((r) => r.id)).toEqual(batch.map((m) => m.id));
    }
    expect(await post(port, [...batch, ping(MAX_BATCH)])).toMatchObject({ status: 400, json: { id: null, error: { code: -32600 } } });
    expect(await post(port, [])).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    for (const version of ['2025-06-18', '2025-11-25', STATELESS]) {
      const refused = await post(port, [ping(1)], { 'mcp-protocol-version': version });
      expect(refused.status, version).toBe(400);
      expect(refused.json.error?.code, version).toBe(-32600);
      // 2025-06-18 says null where an id cannot be read, as JSON-RPC does; 2025-11-25 and later leave it out.
      expect('id' in refused.json, version).toBe(version === '2025-06-18');
    }
  });

  it('refuses an id that is no string nor integer, never taking it for a notification; keeps 2025-03-26’s fractions', async () => {
    const port = await start();
    for (const id of [{ a: 1 }, [1], null, true]) {
      const answer = await post(port, { jsonrpc: '2.0', id, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' });
      expect(answer, JSON.stringify(id)).toMatchObject({ status: 400, json: { id: null, error: { code: -32600 } } });
    }
    expect(await post(port, { jsonrpc: '2.0', id: 1.5, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' })).toMatchObject({
      status: 400,
      json: { error: { code: -32600, message: 'id must be a string or an integer' } },
    });
    expect(await post(port, { jsonrpc: '2.0', id: 1.5, method: 'ping' })).toMatchObject({ status: 200, json: { id: 1.5, result: {} } });
    // A notification (no id at all) is still answered with 202 and nothing.
    expect(await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ status: 202, json: undefined });
    // What is not JSON has no id to give.
    expect(await post(port, '{"jsonrpc": "2.0", "id": 9,')).toMatchObject({ status: 400, json: { id: null, error: { code: -32700 } } });
  });

  it('answers a handshake revision as before: initialize agrees a version it speaks, an unknown method is a 200 with -32601', async () => {
    const port = await start();
    const init = await post(port, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: STATELESS, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    // 2026-07-28 has no handshake: a client that asks it through initialize gets the newest handshake revision.
    expect(init.json.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'dziennik2mqtt' }, capabilities: { tools: {} } });
    expect(await post(port, { jsonrpc: '2.0', id: 1, method: 'prompts/list' }, { 'mcp-protocol-version': '2025-11-25' })).toMatchObject({
      status: 200,
      json: { id: 1, error: { code: -32601 } },
    });
    expect(
      (await post(port, { jsonrpc: '2.0', id: 2, method: 'server/discover' }, { 'mcp-protocol-version': '2025-11-25' })).json.result,
    ).toMatchObject({
      supportedVersions: PROTOCOL_VERSIONS,
    });
  });

  it('quotes at most a few dozen characters of what a call gave it: a 100 KB child, date or method', async () => {
    const port = await start();
    const long = 'Zosia'.repeat(20_000);
    for (const args of [{ child: long }, { child: 'ania', date: long }, { child: ` ${long}\n` }]) {
      const answer = await post(port, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_day', arguments: args } });
      const text = answer.json.result?.content?.[0]?.text ?? '';
      expect(answer.json.result?.isError).toBe(true);
      expect(text.length, text.slice(0, 200)).toBeLessThan(600);
      expect(text).toContain('ZosiaZosia');
    }
    const method = await post(port, { jsonrpc: '2.0', id: 2, method: long });
    expect(method.json.error?.message.length).toBeLessThan(80);
    const tool = await post(port, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: long } });
    expect(tool.json.error?.message.length).toBeLessThan(80);
  });
});

describe('a batch and the event loop', () => {
  it('gives the loop a turn between two of its calls: a pass or /health waits for one call, never for the batch', async () => {
    const data = new HandData();
    data.setChild('ania');
    const mcp = new McpServer(options(data));
    const batch = Array.from({ length: MAX_BATCH }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_school', arguments: {} },
    }));
    // Something else that wants the loop meanwhile: it counts the turns it got before the batch was answered.
    let turns = 0;
    let done = false;
    const other = (): void => {
      if (done) return;
      turns++;
      setImmediate(other);
    };
    setImmediate(other);
    const answer = (await mcp.answer(batch)) as unknown[];
    done = true;
    expect(answer).toHaveLength(MAX_BATCH);
    expect(turns).toBeGreaterThanOrEqual(MAX_BATCH - 1);
  });
});
