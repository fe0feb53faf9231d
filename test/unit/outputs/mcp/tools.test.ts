// The MCP server's tools as a client converts them (interface 16.4): Home Assistant turns each input schema into
// its own (voluptuous) and takes plain objects of strings, integers, booleans and enums only; the names are fixed;
// every tool but open_message and send_message is read-only. And the protocol's few methods: the version agreed,
// a notification unanswered, an unknown method refused.
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../../src/outputs/mcp/tools.js';
import { McpServer, NEWEST_HANDSHAKE_VERSION } from '../../../../src/outputs/mcp/server.js';
import { silentLogger } from '../../../../src/util/log.js';
import type { ChildView } from '../../../../src/outputs/web/types.js';
import { TOOL_NAMES } from '../../../helpers/mcp-tools.js';

const PLAIN = new Set(['string', 'integer', 'boolean']);

describe('the MCP tools', () => {
  it('have the fixed names, English descriptions and plain input schemas', () => {
    expect(TOOLS.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of TOOLS) {
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
      expect(tool.description, tool.name).toMatch(/^[\x20-\x7e–]+$/);
      const schema = tool.inputSchema as { type: string; properties: Record<string, Record<string, unknown>>; required?: string[] };
      expect(Object.keys(schema).sort(), tool.name).toEqual(schema.required ? ['properties', 'required', 'type'] : ['properties', 'type']);
      expect(schema.type).toBe('object');
      expect(schema.properties.child?.type, tool.name).toBe('string');
      for (const [key, property] of Object.entries(schema.properties)) {
        expect(PLAIN.has(property.type as string), `${tool.name}.${key}`).toBe(true);
        expect(
          Object.keys(property).every((k) => ['type', 'description', 'enum', 'minimum', 'maximum'].includes(k)),
          `${tool.name}.${key}`,
        ).toBe(true);
        if (property.enum !== undefined) expect((property.enum as unknown[]).every((v) => typeof v === 'string')).toBe(true);
      }
      for (const key of schema.required ?? []) expect(schema.properties[key], `${tool.name} requires ${key}`).toBeDefined();
      expect(tool.readOnly, tool.name).toBe(tool.name.startsWith('get_'));
    }
  });
});

const child: ChildView = { id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', online: true, states: new Map(), changedAt: 0 };

function server(writes = false): McpServer {
  return new McpServer({
    source: { language: 'en', now: () => Date.parse('2026-11-18T08:00:00Z'), children: () => [child], facts: () => new Map() },
    actions: { command: () => Promise.resolve({}), writes: () => writes },
    version: '1.2.3',
    clock: { now: () => 0 },
    log: silentLogger(),
  });
}

describe('the MCP server', () => {
  it("answers initialize with the client's version when known, else its newest; a notification gets no answer", async () => {
    const init = (protocolVersion: string) => server().answer({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion } });
    expect(await init('2025-06-18')).toMatchObject({
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'dziennik2mqtt', version: '1.2.3' }, capabilities: { tools: {} } },
    });
    expect(await init('2030-01-01')).toMatchObject({ result: { protocolVersion: NEWEST_HANDSHAKE_VERSION } });
    expect(await server().answer({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(await server().answer({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).toMatchObject({ error: { code: -32601 } });
  });

  it('lists send_message only when a child may write, and answers a read tool for the one child without naming it', async () => {
    const names = async (s: McpServer) =>
      ((await s.answer({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { result: { tools: { name: string }[] } }).result.tools.map(
        (t) => t.name,
      );
    expect(await names(server(false))).not.toContain('send_message');
    expect(await names(server(true))).toContain('send_message');
    const answer = (await server().answer({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_school', arguments: {} } })) as {
      result: { content: { text: string }[]; isError?: boolean };
    };
    expect(answer.result.isError).toBeUndefined();
    // Before the first pass every fact is said as not known yet: none as none, none as 0.
    expect(answer.result.content[0]?.text.split('\n').slice(0, 4)).toEqual([
      'Ania (ania) — School',
      'Waiting for the first reading of the register.',
      'Lucky number: not known yet',
      "Teachers of the child's subjects: not known yet",
    ]);
    expect(answer.result.content[0]?.text).toContain('\nSchool: not known yet\n');
    expect(answer.result.content[0]?.text).not.toMatch(/\bnone\b|\b0\b/);
    const wrong = (await server().answer({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'get_upcoming', arguments: { days: 'many' } },
    })) as {
      result: { content: { text: string }[]; isError?: boolean };
    };
    expect(wrong.result).toMatchObject({ isError: true, content: [{ text: '"days" must be a whole number.' }] });
  });
});
