// The web server as an output of the running bridge (http.port not 0): the snapshot the board, the calendar feeds and
// the MCP server read, subscribed to the bus; the metrics (http.metrics) /metrics serves; the server itself, started
// before the broker is reached (/health then says 503 and the board shows what was restored). Its modules are
// loaded only then: a bridge without the web server never loads them, nor the writer of its calendar feeds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Output, OutputBridge, OutputKind } from '../output.js';
import type { WebSnapshot } from './snapshot.js';
import type { WebService } from './service.js';
import type { Metrics } from './metrics.js';

/** The web server's part of the running bridge: what it reads, its address once it listens. */
export interface WebOutput extends Output {
  readonly snapshot: WebSnapshot;
  /** The address it listens on (undefined before it does, or when it could not). */
  readonly url: string | undefined;
  /** The MCP server at /mcp (an output of its own, src/outputs/mcp/output.ts): given before the server starts. */
  serveMcp(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
}

export const WEB: OutputKind<WebOutput> = {
  name: 'web server',
  runs: ({ config }) => config.http.port !== 0,
  abandonable: true,
  make: async (bridge: OutputBridge) => {
    const { config, clock } = bridge;
    const [{ WebSnapshot }, { WebService }, { bridgeNames }] = await Promise.all([
      import('./snapshot.js'),
      import('./service.js'),
      import('./request.js'),
    ]);
    const metrics = config.http.metrics ? new (await import('./metrics.js')).Metrics({ mqttPublishes: bridge.broker.publishes }) : undefined;
    const snapshot = new WebSnapshot({ language: config.language, healthy: bridge.broker.connected, now: () => clock.now() });
    let mcp: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
    let service: WebService | undefined;
    return {
      sink: snapshot,
      snapshot,
      ...(metrics ? { figures: metrics } : {}),
      get url() {
        return service?.url;
      },
      serveMcp: (handler) => (mcp = handler),
      start: () => {
        service = new WebService({
          http: config.http,
          dataDir: config.data_dir,
          data: snapshot,
          log: bridge.log.child({ part: 'web' }),
          out: bridge.out,
          // Before the first identity an id is the login, not yet the one the calendar feeds will have.
          childIds: () => bridge.children().ids,
          ingressAddress: bridge.ingressAddress,
          // Home Assistant reaches the bridge by public_url (the app's: its host name on the Supervisor's network).
          names: bridgeNames([config.homeassistant?.public_url, config.supervisor?.publicUrl]),
          clock,
          diagnostics: { bundle: () => bridge.diagnostics(), metrics: metrics && (() => (metrics as Metrics).text()) },
          ...(mcp ? { mcp } : {}),
        });
        return service.start();
      },
      stop: () => service?.stop(),
    };
  },
};
