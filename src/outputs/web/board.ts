// The family board's routes (interface 6.5, `/`): the page, its style sheet and script, the board
// model as JSON (`api/board`) and its changes as server-sent events (`api/events`). Everything comes
// from what the bridge holds (WebData); nothing here asks the portal. URLs stay relative so the page
// also works under Home Assistant's ingress path.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { boardModel } from './board-model.js';
import { calendarFeedAccessJson, type BoardCalendarFeedAccess } from './board-calendars.js';
import { boardHtml } from './board-page.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { boardAssets, type BoardAsset } from './board-bundle.js';
import { writeToStream } from './streams.js';
import type { Route, WebData, WebRequest, WebResponse } from './types.js';
import { systemClock, type Clock, type Timer } from '../../util/clock.js';

export interface BoardOptions {
  /** A burst of state changes (a pass publishes dozens) becomes one event after this long. */
  coalesceMs?: number;
  /** A comment this often keeps proxies from closing an idle stream; the model is re-read then too. */
  heartbeatMs?: number;
  /** The token (for the calendar feeds' keys) and port for the cards' calendar feed addresses; without it the cards offer no calendars. */
  calendarFeeds?: BoardCalendarFeedAccess | undefined;
  /** The clock of the stream's timers: the bridge's (a test's fake one moves them). */
  clock?: Clock | undefined;
}

/** The model and its version (a hash of it): the page sends the version back so an unchanged model is not sent again. */
function current(data: WebData) {
  const model = boardModel(data.children(), data.language, data.now());
  const modelJson = JSON.stringify(model);
  const version = createHash('sha256').update(modelJson).digest('base64url').slice(0, 16);
  return { version, model, json: `{"version":"${version}","model":${modelJson}}` };
}

export type Versioned = ReturnType<typeof current>;

const path = (req: WebRequest): string => req.segments.join('/');

export function boardRoutes(data: WebData, options: BoardOptions = {}): Route[] {
  const timing = { coalesceMs: options.coalesceMs ?? 1000, heartbeatMs: options.heartbeatMs ?? 25_000 };
  const events = new BoardEvents(data, timing, options.clock ?? systemClock);
  const { script, style } = boardAssets();
  // The script's and the style sheet's names change with their content: a browser keeps them as long as it likes.
  const immutable = (type: string, asset: BoardAsset): [string, WebResponse] => [
    asset.file,
    { status: 200, headers: { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'public, max-age=31536000, immutable' }, body: asset.body },
  ];
  const assets = new Map([immutable('text/javascript', script), immutable('text/css', style)]);
  return [
    (req) => {
      if (path(req) !== '') return undefined;
      const now = current(data);
      const body = boardHtml({
        language: data.language,
        title: now.model.labels.title,
        script: script.file,
        style: style.file,
        data: now.json,
        calendarFeedAccess: options.calendarFeeds && calendarFeedAccessJson(options.calendarFeeds, req, data.children()),
        // In the app's panel (ingress) the diagnostics file opens without the token: linked at the foot.
        diagnostics: req.via === 'ingress' ? BOARD_TEXT[data.language].diagnostics : undefined,
      });
      // It holds the calendar feeds' keys and the family's data: for this browser only, never a shared cache.
      return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-cache' }, body };
    },
    (req) => assets.get(path(req)),
    // Revalidated every time (the server answers 304 by ETag).
    (req) => (path(req) === 'api/board' ? { status: 200, headers: JSON_NO_CACHE, body: current(data).json } : undefined),
    (req) => {
      if (path(req) !== 'api/events') return undefined;
      // The version the page already shows: EventSource sends it back on a reconnect, the page's first connect in the URL.
      const last = req.headers['last-event-id'];
      const shown = (typeof last === 'string' ? last : undefined) ?? req.query.get('v') ?? '';
      return { status: 200, headers: STREAM_HEADERS, stream: (res) => events.attach(res, shown) };
    },
  ];
}

const JSON_NO_CACHE = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' };
const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  // Home Assistant's ingress and other proxies must pass each event on at once.
  'X-Accel-Buffering': 'no',
};

/**
 * The open event streams. Subscribed to the bridge's changes only while a page listens; a burst of
 * changes sends one event after coalesceMs, and only when the model differs from what was last sent.
 * The heartbeat re-reads the model too: the time alone changes it (a lesson ends, data grows old).
 */
class BoardEvents {
  private readonly clients = new Map<ServerResponse, string>();
  private unsubscribe: (() => void) | undefined;
  private pending: Timer | undefined;
  private heartbeat: Timer | undefined;

  constructor(
    private readonly data: WebData,
    private readonly timing: { coalesceMs: number; heartbeatMs: number },
    private readonly clock: Clock,
  ) {}

  attach(res: ServerResponse, shown: string): void {
    if (!res.headersSent) res.writeHead(200, STREAM_HEADERS);
    // A reconnect after a dropped stream waits 5 s; the first line also opens the stream at once.
    writeToStream(res, 'retry: 5000\n\n');
    this.clients.set(res, shown);
    res.on('close', () => this.detach(res));
    if (this.clients.size === 1) this.start();
    this.send(current(this.data), res);
  }

  private start(): void {
    this.unsubscribe = this.data.onChange(() => {
      this.pending ??= this.clock.setTimer(() => {
        this.pending = undefined;
        this.broadcast();
      }, this.timing.coalesceMs);
    });
    this.beat();
  }

  private beat(): void {
    this.heartbeat = this.clock.setTimer(() => {
      for (const res of this.clients.keys()) writeToStream(res, ': heartbeat\n\n');
      this.broadcast();
      this.beat();
    }, this.timing.heartbeatMs);
  }

  private detach(res: ServerResponse): void {
    if (!this.clients.delete(res) || this.clients.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.pending?.cancel();
    this.heartbeat?.cancel();
    this.pending = undefined;
    this.heartbeat = undefined;
  }

  private broadcast(): void {
    if (this.clients.size === 0) return;
    const now = current(this.data);
    for (const res of this.clients.keys()) this.send(now, res);
  }

  private send(now: Versioned, res: ServerResponse): void {
    if (this.clients.get(res) === now.version || res.writableEnded) return;
    this.clients.set(res, now.version);
    writeToStream(res, `id: ${now.version}\nevent: board\ndata: ${now.json}\n\n`);
  }
}
