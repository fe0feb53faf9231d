// The board's own page and script serving a board model made by a test (no bridge): the page as the
// server renders it, its bundled script and style sheet, and a quiet event stream.
import { createServer, type Server } from 'node:http';
import { closeHttp, listenOnLoopback } from './ports.js';
import { boardAssets } from '../../src/outputs/web/board-bundle.js';
import { boardHtml } from '../../src/outputs/web/board-page.js';
import type { BoardModel } from '../../src/outputs/web/board-model.js';

export interface ModelServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `model` at `/` with the board's script and style; calendars offered with made-up keys. */
export async function serveModel(model: BoardModel): Promise<ModelServer> {
  const { script, style } = boardAssets();
  const keys = Object.fromEntries(model.children.flatMap((c) => c.calendarFeeds.map((f) => [f.path, 'k'])));
  const page = boardHtml({
    language: model.language,
    title: model.labels.title,
    script: script.file,
    style: style.file,
    data: JSON.stringify({ version: '1', model }),
    calendarFeedAccess: JSON.stringify({ keys, port: 8099, ingress: false }),
  });
  const server: Server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/') return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    if (url === `/${script.file}`) return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script.body);
    if (url === `/${style.file}`) return void res.writeHead(200, { 'Content-Type': 'text/css' }).end(style.body);
    if (url === '/api/events') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': open\n\n');
    res.writeHead(404).end();
  });
  return {
    port: await listenOnLoopback(server),
    close: () => closeHttp(server),
  };
}
