// The MCP server as an output of the running bridge (interface 16.4, 17.1): served by the web server at /mcp, so it
// runs with it; it answers from the web server's snapshot and from what the features keep for Assist (AssistFacts,
// subscribed to the bus), and acts (open_message, send_message) through a child's command, as its topic would.
import type { Output, OutputKind } from '../output.js';
import { WEB } from '../web/output.js';

export const MCP_SERVER: OutputKind = {
  name: 'MCP server',
  runs: ({ config }) => config.http.port !== 0,
  make: async (bridge, made): Promise<Output> => {
    const web = made.of(WEB);
    if (web === undefined) return {};
    const [{ mcpHandler }, { AssistFacts }, { knownChildren }] = await Promise.all([
      import('./http.js'),
      import('./facts.js'),
      import('./children.js'),
    ]);
    const facts = new AssistFacts();
    const { snapshot } = web;
    web.serveMcp(
      mcpHandler({
        source: {
          language: snapshot.language,
          now: () => snapshot.now(),
          // A configured child is named before its first pass published anything.
          children: () => knownChildren(snapshot.children(), bridge.children().ids),
          facts: (child) => facts.of(child),
        },
        // The bridge acts as the command topics do, in the child's account queue.
        actions: bridge,
        version: bridge.version,
        clock: bridge.clock,
        log: bridge.log.child({ part: 'mcp' }),
      }),
    );
    return { sink: facts };
  },
};
