// The web server as a part of the running bridge: the token, the routes, the MCP server, start-up lines and a
// bind failure that leaves the bridge running. Built by App when http.port is not 0.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatWebUrls, LiveToken, loadOrCreateToken, webBaseUrl, webUrls } from './token.js';
import { startWebServer, type WebServer, type WebServerOptions } from './server.js';
import { healthRoute } from './health.js';
import { calendarFeedRoute } from './calendar-feeds.js';
import { boardRoutes } from './board.js';
import { fileRoute } from '../../portal/attachments/saved.js';
import { diagnosticsRoutes, type DiagnosticsSources } from './diagnostics.js';
import type { BoardCalendarFeedAccess } from './board-calendars.js';
import type { Route, WebData } from './types.js';
import type { HttpConfig } from '../../config/schema.js';
import { systemClock, type Clock, type Timer } from '../../util/clock.js';
import { TERMINAL_TEXT } from '../../i18n/terminal-text.js';
import { errorText } from '../../util/text.js';
import type { CalendarFeedName } from '../../rules/calendar-feeds.js';

/**
 * How often the token file is looked at besides each request: a rotation also ends the event streams
 * opened with the old token when no request comes (a board left open on a tablet).
 */
const TOKEN_CHECK_MS = 30_000;

/** The server's own (its clock times the board's stream timers too), and what the service adds around it. */
export interface WebServiceOptions extends Pick<WebServerOptions, 'data' | 'log' | 'ingressAddress' | 'clock' | 'names'> {
  http: HttpConfig;
  dataDir: string;
  /** Where the full URLs go on the first start: plain lines, never through the logger. */
  out: { write(text: string): unknown };
  /** Each account's child id at start-up, undefined while it is not known yet (no identity so far). */
  childIds: () => ReadonlyArray<string | undefined>;
  /** The diagnostics bundle and (http.metrics on) the metrics: /diagnostics and /metrics. */
  diagnostics?: DiagnosticsSources;
  /** The MCP server at /mcp (interface 16.4), given every request let in there (src/outputs/mcp/http.ts). */
  mcp?: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Every route of the server, asked in this order; `calendarFeeds` lets the board list the calendar feed addresses, and
 * `dataDir` serves the saved message attachments.
 */
export function webRoutes(
  data: WebData,
  options: {
    calendarFeeds?: BoardCalendarFeedAccess;
    clock?: Clock | undefined;
    dataDir?: string;
    diagnostics?: DiagnosticsSources | undefined;
  } = {},
): Route[] {
  return [
    healthRoute(data),
    calendarFeedRoute(data),
    ...(options.diagnostics === undefined ? [] : diagnosticsRoutes(options.diagnostics, data.language)),
    ...(options.dataDir === undefined ? [] : [fileRoute(data, options.dataDir)]),
    ...boardRoutes(data, options),
  ];
}

export class WebService {
  private server: WebServer | undefined;
  private stopWaiting: (() => void) | undefined;
  private tokenCheck: Timer | undefined;

  constructor(private readonly options: WebServiceOptions) {}

  /** The address it listens on (undefined when it is not running). */
  get url(): string | undefined {
    return this.server?.url;
  }

  /** Starts the server; any failure is logged with advice and the bridge goes on without it. */
  async start(): Promise<void> {
    const { http, dataDir, data, log } = this.options;
    let token: Awaited<ReturnType<typeof loadOrCreateToken>>;
    try {
      token = await loadOrCreateToken(dataDir, (error) => log.warn({ err: error.message }, 'web access token unreadable; a new one is made'));
    } catch (error) {
      log.error({ err: (error as NodeJS.ErrnoException).code ?? String(error) }, `web server off: cannot keep its access token in ${dataDir}`);
      return;
    }
    const live = new LiveToken(dataDir, token.value);
    const clock = this.options.clock ?? systemClock;
    const mcp = this.options.mcp;
    try {
      this.server = await startWebServer({
        port: http.port,
        host: http.bind,
        // A getter: the board's page lists the calendar feeds' keys of the token in force, after a rotation too.
        routes: webRoutes(data, {
          calendarFeeds: {
            get token() {
              return live.current();
            },
            port: http.port,
          },
          clock,
          dataDir,
          diagnostics: this.options.diagnostics,
        }),
        data,
        token: () => live.current(),
        log,
        ingressAddress: this.options.ingressAddress,
        clock,
        ...(mcp ? { mcp } : {}),
        ...(this.options.names ? { names: this.options.names } : {}),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      log.error({ port: http.port, bind: http.bind, err: code ?? errorText(error) }, bindAdvice(code, http.port));
      return;
    }
    const server = this.server;
    live.onChange(() => {
      log.info('web server: the access token changed (dziennik2mqtt token --rotate); old addresses and cookies no longer open anything');
      server.endStreams();
    });
    const check = (): void => {
      this.tokenCheck = clock.setTimer(() => {
        live.current();
        check();
      }, TOKEN_CHECK_MS);
    };
    check();
    const base = webBaseUrl(http.bind, this.server.port);
    if (token.created) this.printOnce(base);
    log.info(
      { board: `${base}/`, health: `${base}/health`, ...(mcp ? { mcp: `${base}/mcp` } : {}) },
      'web server listening (the addresses with the access token: dziennik2mqtt check --show-token)',
    );
  }

  /**
   * The addresses on the first start only, WITHOUT the token or the calendar feeds' keys: stdout is the
   * container's log, which people paste into bug reports. `check --show-token` gives them with it. A
   * child's calendar feeds are those its device declares (a kindergarten child has no agenda), named by its id,
   * which a child without a configured one gets from its first pass: until every child's device is known, the
   * board's address goes out alone and the calendar feeds follow once the passes have named every child.
   */
  private printOnce(base: string): void {
    const { out, data } = this.options;
    const write = (lines: string[]) => out.write([...lines, ''].join('\n'));
    // In the family's language: a parent reads these lines on the first start.
    const say = TERMINAL_TEXT[data.language];
    const heading = ['', say.webHeading, say.webHowTo];
    const urls = (calendarFeeds: ReadonlyMap<string, readonly CalendarFeedName[]>) =>
      formatWebUrls(
        webUrls(base, [...calendarFeeds.keys()], undefined, (id) => calendarFeeds.get(id) ?? []),
        data.language,
      );
    const known = this.calendarFeedsKnown();
    if (known) {
      write([...heading, ...urls(known)]);
      return;
    }
    write([...heading, ...urls(new Map()), say.calendarFeedsFollow]);
    this.stopWaiting = data.onChange(() => {
      const calendarFeeds = this.calendarFeedsKnown();
      if (!calendarFeeds) return;
      this.stopWaiting?.();
      this.stopWaiting = undefined;
      write(['', say.calendarFeedsHeading, say.webHowTo, ...urls(calendarFeeds).slice(1)]);
    });
  }

  /** Each child's calendar feeds as its device declares them, once every account's child and device are known. */
  private calendarFeedsKnown(): Map<string, readonly CalendarFeedName[]> | undefined {
    const views = this.options.data.children();
    const calendarFeeds = new Map<string, readonly CalendarFeedName[]>();
    for (const id of this.options.childIds()) {
      const offered = id === undefined ? undefined : views.find((view) => view.id === id)?.calendarFeeds;
      if (id === undefined || offered === undefined) return undefined;
      calendarFeeds.set(id, offered);
    }
    return calendarFeeds;
  }

  async stop(): Promise<void> {
    this.stopWaiting?.();
    this.tokenCheck?.cancel();
    this.tokenCheck = undefined;
    await this.server?.close();
    this.server = undefined;
  }
}

function bindAdvice(code: string | undefined, port: number): string {
  if (code === 'EADDRINUSE')
    return `web server off: port ${port} is taken by another program; set http.port to a free one (or 0 to turn the web server off); the bridge goes on`;
  if (code === 'EACCES') return `web server off: not allowed to listen on port ${port}; use a port above 1023 in http.port; the bridge goes on`;
  if (code === 'EADDRNOTAVAIL') return 'web server off: http.bind is not an address of this machine; the bridge goes on';
  return 'web server off: could not listen; the bridge goes on';
}
