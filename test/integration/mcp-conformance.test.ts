// The MCP server as the protocol's official conformance suite (@modelcontextprotocol/conformance) checks it, on
// the image's Node (the suite needs 22 or later; the bench brings that Node from the npm registry into
// node_modules/.cache the first time, src/bench/image-node.ts). Every server scenario of every revision the bridge
// speaks runs against the real bridge on the simulator: initialize, ping, tools/list, the stateless 2026-07-28
// (server/discover, the `_meta` envelope, -32022, -32020, 404 for a method it does not have, the id in every
// error), caching hints, the standard headers, and dns-rebinding-protection (a Host that is not the bridge's).
// What does not apply is named below with its reason, and a name there that no longer fails fails the test.
// The suite is given the bridge through a pass-through that adds the token as a bearer (an MCP client's
// configured credential): one of its scenarios sends its requests without the address's query, so a `?key=`
// would not reach the bridge. About 20 s for the four revisions, plus the first download of the Node (30 s here).
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { checkoutImageNode } from '../../src/bench/image-node.js';
import { PROTOCOL_VERSIONS } from '../../src/outputs/mcp/server.js';
import { closeHttp, freePort, listenOnLoopback } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { tempDir } from '../helpers/temp.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const ROOT = join(import.meta.dirname, '..', '..');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/**
 * The scenarios (or one check of a scenario, `scenario:check`) that do not apply to the bridge, by reason. The
 * suite's extension scenarios (tasks, skills) are optional by its own rule and are not run by revision.
 */
const NOT_APPLICABLE: { reason: string; scenarios: string[] }[] = [
  {
    reason:
      "they call the suite's own reference tools (test_simple_text, test_sampling, json_schema_2020_12_tool, ...), which a server under test is to offer for them; the bridge offers its own tools only",
    scenarios: [
      'tools-call-simple-text',
      'tools-call-image',
      'tools-call-audio',
      'tools-call-embedded-resource',
      'tools-call-mixed-content',
      'tools-call-with-logging',
      'tools-call-error',
      'tools-call-with-progress',
      'tools-call-sampling',
      'tools-call-elicitation',
      'json-schema-2020-12',
      'elicitation-sep1034-defaults',
      'elicitation-sep1330-enums',
      'input-required-result-basic-elicitation',
      'input-required-result-basic-sampling',
      'input-required-result-basic-list-roots',
      'input-required-result-request-state',
      'input-required-result-multiple-input-requests',
      'input-required-result-multi-round',
      'input-required-result-missing-input-response',
      'input-required-result-non-tool-request',
      'input-required-result-result-type',
      'input-required-result-tampered-state',
      'input-required-result-capability-check',
      'input-required-result-ignore-extra-params',
      'server-stateless:sep-2575-server-rejects-undeclared-capability',
      'server-stateless:sep-2575-missing-capability-http-400',
      'server-stateless:sep-2575-http-server-no-independent-requests-on-stream',
      'server-stateless:sep-2575-server-no-log-without-loglevel',
    ],
  },
  {
    reason: 'it needs a tool with a parameter mirrored into an Mcp-Param-* header (x-mcp-header); none of the bridge’s has one',
    scenarios: ['http-custom-header-server-validation'],
  },
  {
    reason: 'capabilities the bridge does not offer (it offers tools alone: no prompts, resources, completions or logging)',
    scenarios: [
      'prompts-list',
      'prompts-get-simple',
      'prompts-get-with-args',
      'prompts-get-embedded-resource',
      'prompts-get-with-image',
      'resources-list',
      'resources-read-text',
      'resources-read-binary',
      'resources-templates-read',
      'resources-subscribe',
      'resources-unsubscribe',
      'sep-2164-resource-not-found',
      'completion-complete',
      'logging-set-level',
      'caching:sep-2549-prompts-list-caching-hints',
      'caching:sep-2549-resources-list-caching-hints',
      'caching:sep-2549-resources-templates-list-caching-hints',
    ],
  },
  {
    reason: 'a warning that the server names no session: it keeps none by design, each request stands alone (interface 16.4)',
    scenarios: ['server-sse-polling:server-sse-polling-session', 'server-sse-multiple-streams:server-sse-multiple-streams-session'],
  },
];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** The checks of each scenario the suite ran at one revision, read from its result folders. */
async function runSuite(node: string, url: string, version: string): Promise<Map<string, Check[]>> {
  const out = await tempDir();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(node, [SUITE, 'server', '--url', url, '--suite', 'all', '--spec-version', version, '-o', out], {
      cwd: out,
      stdio: 'ignore',
    });
    child.on('error', reject);
    // Its exit code says whether anything failed: what failed is read from its results below.
    child.on('exit', () => resolve());
  });
  const scenarios = new Map<string, Check[]>();
  for (const folder of await readdir(out)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    scenarios.set(scenario, JSON.parse(await readFile(join(out, folder, 'checks.json'), 'utf8')) as Check[]);
  }
  return scenarios;
}

/** A pass-through to the bridge that adds the token as a bearer and leaves every other header as it came (the Host too). */
async function withBearer(port: number, token: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const ahead = request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    ahead.on('error', () => res.writeHead(502).end());
    req.pipe(ahead);
  });
  return { server, url: `http://127.0.0.1:${await listenOnLoopback(server)}/mcp` };
}

let passThrough: Server | undefined;
afterEach(() => closeHttp(passThrough));

describe('the official MCP conformance suite', () => {
  it.skipIf(platform() !== 'linux' || arch() !== 'x64')(
    'passes every server scenario of every revision the bridge speaks, but those that do not apply',
    async () => {
      const node = await checkoutImageNode(ROOT, () => undefined);
      expect(node, "the image's Node from the npm registry").toBeDefined();
      const port = await freePort();
      const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], http: { port }, out: { write: () => true } });
      const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
      const bearer = await withBearer(port, token);
      passThrough = bearer.server;

      const excused = NOT_APPLICABLE.flatMap((group) => group.scenarios);
      const failing = new Set<string>();
      const unexcused: string[] = [];
      const passed = new Map<string, number>();
      for (const version of PROTOCOL_VERSIONS) {
        const scenarios = await runSuite(node!.execPath, bearer.url, version);
        expect(scenarios.size, `scenarios run at ${version}`).toBeGreaterThan(0);
        for (const [scenario, checks] of scenarios) {
          for (const check of checks) {
            if (check.status === 'SUCCESS') passed.set(`${version} ${scenario}`, (passed.get(`${version} ${scenario}`) ?? 0) + 1);
            if (check.status !== 'FAILURE' && check.status !== 'WARNING') continue;
            const named = excused.find((entry) => entry === scenario || entry === `${scenario}:${check.id}`);
            if (named === undefined) unexcused.push(`${version} ${scenario}:${check.id} ${check.status}: ${check.errorMessage ?? ''}`);
            else failing.add(named);
          }
        }
      }
      expect(unexcused).toEqual([]);
      // The list stays true: every scenario on it still does not apply.
      expect(excused.filter((entry) => !failing.has(entry))).toEqual([]);
      // What the bridge is measured by passed where it applies: the handshake revisions and the stateless one.
      for (const scenario of ['2025-06-18 server-initialize', '2025-11-25 ping', '2025-11-25 tools-list', '2025-11-25 dns-rebinding-protection'])
        expect(passed.get(scenario), scenario).toBeGreaterThan(0);
      for (const scenario of [
        'server-stateless',
        'tools-list',
        'dns-rebinding-protection',
        'caching',
        'http-header-validation',
        'server-sse-multiple-streams',
      ])
        expect(passed.get(`2026-07-28 ${scenario}`), `2026-07-28 ${scenario}`).toBeGreaterThan(0);
    },
    // The first run brings the Node (about 30 MB) from the registry.
    300_000,
  );
});
