// The board's routes: the page with its data and relative links, the assets, the JSON, and the event
// stream over a real HTTP connection (one event per burst of changes, heartbeats, cleanup on leave).
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { boardRoutes } from '../../../../src/outputs/web/board.js';
import { boardAssets } from '../../../../src/outputs/web/board-bundle.js';

const { script: boardScript, style: boardStyle } = boardAssets();
import { FakeClock } from '../../../helpers/clock.js';
import { webRoutes } from '../../../../src/outputs/web/service.js';
import { calendarFeedKey } from '../../../../src/outputs/web/token.js';
import { CALENDAR_FEED_NAMES } from '../../../../src/rules/calendar-feeds.js';
import type { EntityState } from '../../../../src/engine/state.js';
import type { ChildView, Route, WebData, WebRequest } from '../../../../src/outputs/web/types.js';

const NOW = Date.parse('2026-11-18T09:12:00+01:00');

class FakeData implements WebData {
  language: 'pl' | 'en' = 'pl';
  listeners = new Set<() => void>();
  kids: ChildView[] = [kid('ania', 'Ania', '13')];
  children = () => this.kids;
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  calendarFeedSource = () => undefined;
  healthy = () => true;
  now = () => NOW;
  change(kids: ChildView[]): void {
    this.kids = kids;
    for (const l of this.listeners) l();
  }
}

function kid(id: string, name: string, lucky: string): ChildView {
  const states = new Map<string, EntityState>([
    ['lucky_number', { state: lucky, attributes: { day: '2026-11-18', register_number: '7' } }],
    ['last_update', { state: '2026-11-18T09:11:30+01:00' }],
  ]);
  return { id, name, model: 'Klasa 4b', online: true, states, changedAt: NOW };
}

const request = (path: string, headers: Record<string, string> = {}, ingressPath = '', via?: WebRequest['via']): WebRequest => {
  const url = new URL(path, 'http://board');
  return {
    method: 'GET',
    segments: url.pathname.split('/').filter((s) => s !== ''),
    query: url.searchParams,
    headers,
    ingressPath,
    trusted: true,
    via: via ?? (ingressPath === '' ? 'query' : 'ingress'),
  };
};

function answer(routes: Route[], path: string, headers: Record<string, string> = {}, ingressPath = '', via?: WebRequest['via']) {
  for (const route of routes) {
    const res = route(request(path, headers, ingressPath, via));
    if (res !== undefined) return res;
  }
  return undefined;
}

describe('the board routes', () => {
  it('serves the page in the bridge language with its data and relative links only', () => {
    const data = new FakeData();
    data.kids = [kid('ania', 'Ania</script><b>', '13')];
    const page = answer(boardRoutes(data), '/');
    expect(page?.status).toBe(200);
    expect(page?.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    const html = String(page?.body);
    expect(html).toContain('<html lang="pl">');
    expect(html).toContain('<title>Tablica szkolna</title>');
    expect(html).toContain(`href="${boardStyle.file}"`);
    expect(html).toContain(`src="${boardScript.file}"`);
    expect(boardScript.file).toMatch(/^board\.[0-9a-f]{16}\.js$/);
    expect(boardStyle.file).toMatch(/^board\.[0-9a-f]{16}\.css$/);
    expect(html).not.toMatch(/(href|src)="\//);
    // A name cannot end the data block: "<" is escaped, and the data reads back as it was.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const json = html.slice(html.indexOf('id="board-data">') + 16, html.lastIndexOf('</script>'));
    expect(JSON.parse(json).model.children[0].name).toBe('Ania</script><b>');
  });

  it('serves the style sheet, the script (valid JavaScript, kept for good: its name changes with it) and the model as JSON', () => {
    const routes = boardRoutes(new FakeData());
    const style = answer(routes, `/${boardStyle.file}`);
    expect(style?.headers?.['Content-Type']).toBe('text/css; charset=utf-8');
    expect(style?.headers?.['Cache-Control']).toBe('public, max-age=31536000, immutable');
    // Both .css files of src/outputs/web/browser/, bundled in order: the board's rules, then the calendar overlay's.
    const css = String(style?.body);
    expect(css.indexOf('.lesson.change-cancelled')).toBeGreaterThan(0);
    expect(css.lastIndexOf('@media')).toBeGreaterThan(0);
    expect(css.indexOf('.cal-overlay')).toBeGreaterThan(css.lastIndexOf('@media'));
    const script = answer(routes, `/${boardScript.file}`);
    expect(script?.headers?.['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(script?.headers?.['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(() => new Function(String(script?.body))).not.toThrow();
    // The board's own code, bundled: the model's drawing is there, no server module came with it.
    expect(String(script?.body)).toContain('api/events');
    expect(String(script?.body)).not.toMatch(/node:|createHash|boardModel/);
    const api = JSON.parse(String(answer(routes, '/api/board')?.body));
    expect(api.version).toMatch(/^[\w-]{16}$/);
    expect(api.model.children[0]).toMatchObject({
      id: 'ania',
      name: 'Ania',
      facts: [{ look: 'badge', label: 'Szczęśliwy numerek', value: '13', mark: null }],
    });
  });

  it('leaves other paths to the other routes', () => {
    const routes = boardRoutes(new FakeData());
    for (const path of [
      '/calendar/ania/lessons.ics',
      '/health',
      '/api',
      '/api/board/x',
      '/board.css',
      '/board.css/x',
      '/index.html',
      '/board.js',
      '/board.0123456789abcdef.js',
      '/board.0123456789abcdef.css',
    ]) {
      expect(answer(routes, path), path).toBeUndefined();
    }
  });

  it('keeps the page, its style and script small (the whole board under 150 KB)', () => {
    const routes = boardRoutes(new FakeData());
    const bytes = ['/', `/${boardStyle.file}`, `/${boardScript.file}`]
      .map((p) => Buffer.byteLength(String(answer(routes, p)?.body)))
      .reduce((a, b) => a + b);
    expect(bytes).toBeLessThan(40_000);
  });
});

describe("the cards' calendar addresses", () => {
  const TOKEN = 'tok_9Qx-2fQ7wKq1LmZp8RtYvB3nC6dE0aHs';
  const calendarFeeds = { token: TOKEN, port: 8099 };
  const twoKids = () => {
    const data = new FakeData();
    data.kids = [kid('ania', 'Ania Kowalska', '13'), kid('jan', 'Jan Kowalski', '7')];
    return data;
  };
  /** A data block of the page, parsed. */
  const block = (html: string, id: string) => {
    const start = html.indexOf(`id="${id}">`);
    if (start === -1) return undefined;
    const from = start + id.length + 6;
    return JSON.parse(html.slice(from, html.indexOf('</script>', from)));
  };

  /** What the page should hold: each calendar feed's own key, derived from the token. */
  const keysOf = (children: string[]) =>
    Object.fromEntries(children.flatMap((c) => CALENDAR_FEED_NAMES.map((f) => [`calendar/${c}/${f}.ics`, calendarFeedKey(TOKEN, c, f)])));

  it("puts each calendar feed's own key (never the token) and the bridge port in the page, and each child its three calendar feed paths", () => {
    const html = String(answer(boardRoutes(twoKids(), { calendarFeeds }), '/')?.body);
    const access = block(html, 'feed-access');
    expect(access).toEqual({ keys: keysOf(['ania', 'jan']), port: 8099, ingress: false });
    expect(new Set(Object.values(access.keys)).size).toBe(6);
    const model = block(html, 'board-data').model;
    expect(model.children.map((c: { calendarFeeds: Array<{ path: string }> }) => c.calendarFeeds.map((f) => f.path))).toEqual([
      ['calendar/ania/lessons.ics', 'calendar/ania/agenda.ics', 'calendar/ania/free-days.ics'],
      ['calendar/jan/lessons.ics', 'calendar/jan/agenda.ics', 'calendar/jan/free-days.ics'],
    ]);
    expect(model.children[0].calendarFeeds[0].title).toBe('Ania – lekcje');
    // The keys are in the access block only, not among the model's paths; the token nowhere.
    expect(html.split(calendarFeedKey(TOKEN, 'ania', 'lessons'))).toHaveLength(2);
    expect(html).not.toContain(TOKEN);
  });

  it('tells the page it came through ingress, where the calendar feeds need the bridge port instead of the page address', () => {
    const page = answer(boardRoutes(twoKids(), { calendarFeeds }), '/', {}, '/api/hassio_ingress/x7Kq2');
    expect(block(String(page?.body), 'feed-access')).toEqual({ keys: keysOf(['ania', 'jan']), port: 8099, ingress: true });
  });

  it('gives a page let in by the cookie alone no calendar feed key (a cookie read off a tablet opens no calendar feed)', () => {
    const html = String(answer(boardRoutes(twoKids(), { calendarFeeds }), '/', {}, '', 'cookie')?.body);
    expect(block(html, 'feed-access')).toBeUndefined();
    expect(block(html, 'board-data').model.children).toHaveLength(2);
    expect(html).not.toContain(TOKEN);
    expect(html).not.toContain(calendarFeedKey(TOKEN, 'ania', 'lessons'));
  });

  it('keeps the page out of shared caches, since it holds the keys', () => {
    expect(answer(boardRoutes(twoKids(), { calendarFeeds }), '/')?.headers?.['Cache-Control']).toBe('private, no-cache');
  });

  it('never puts the token or a key in the JSON, the script, the style sheet or /health', () => {
    const routes = webRoutes(twoKids(), { calendarFeeds });
    const key = calendarFeedKey(TOKEN, 'jan', 'agenda');
    expect(String(answer(routes, '/')?.body)).toContain(key);
    for (const path of ['/', '/api/board', `/${boardScript.file}`, `/${boardStyle.file}`, '/health']) {
      const res = answer(routes, path);
      expect(res?.status, path).toBe(200);
      expect(String(res?.body), path).not.toContain(TOKEN);
      if (path !== '/') expect(String(res?.body), path).not.toContain(key);
    }
  });

  it('offers no calendars without the access (no block in the page)', () => {
    const html = String(answer(boardRoutes(twoKids()), '/')?.body);
    expect(block(html, 'feed-access')).toBeUndefined();
    expect(block(html, 'board-data').model.children).toHaveLength(2);
  });
});

describe('the event stream', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A plain HTTP server in front of the routes (the real one adds auth and headers). */
  async function serve(routes: Route[]): Promise<number> {
    server = createServer((req, res) => {
      const out = answer(routes, req.url ?? '/', req.headers as Record<string, string>);
      if (out?.stream) return out.stream(res);
      res.writeHead(out?.status ?? 404).end(out?.body);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return (server!.address() as AddressInfo).port;
  }

  /** Opens the stream and collects what it says. */
  async function open(port: number, path = '/api/events', headers: Record<string, string> = {}) {
    const res = await new Promise<IncomingMessage>((resolve) => get({ port, host: '127.0.0.1', path, headers }, resolve));
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    return {
      res,
      events: () =>
        text
          .split('\n\n')
          .filter((b) => b.includes('event: board'))
          .map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6))),
      text: () => text,
    };
  }

  // Waits for what the socket brings (real I/O); the stream's timers move only with the fake clock.
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!check()) throw new Error(`timed out: ${what}`);
  };
  const heartbeats = (text: string) => text.split(': heartbeat').length - 1;

  it('sends the board at once, then one event per burst of changes, and stops listening when the page leaves', async () => {
    const data = new FakeData();
    const clock = new FakeClock(NOW);
    const port = await serve(boardRoutes(data, { coalesceMs: 50, heartbeatMs: 60_000, clock }));
    const stream = await open(port);
    expect(stream.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await until(() => stream.events().length === 1, 'the first event');
    expect(stream.events()[0].model.children.map((c: { name: string }) => c.name)).toEqual(['Ania']);
    expect(data.listeners.size).toBe(1);

    // A pass publishing many states: nothing until the burst is over, then one event, with the last of them.
    for (const lucky of ['1', '2', '3', '21']) data.change([kid('ania', 'Ania', lucky), kid('jan', 'Janek', lucky)]);
    await clock.advance(49);
    expect(clock.nextDueAt()).toBe(NOW + 50);
    await clock.advance(1);
    await until(() => stream.events().length === 2, 'the event of the burst');
    expect(stream.events()[1].model.children.map((c: { facts: { value: string }[] }) => c.facts[0]?.value)).toEqual(['21', '21']);
    // Nothing more: the heartbeat comes after anything the burst could still send, with no event before it.
    await clock.advance(60_000);
    await until(() => heartbeats(stream.text()) === 1, 'the first heartbeat');
    expect(stream.events()).toHaveLength(2);

    // A change that changes nothing on the board sends nothing.
    data.change([kid('ania', 'Ania', '21'), kid('jan', 'Janek', '21')]);
    await clock.advance(60_000);
    await until(() => heartbeats(stream.text()) === 2, 'the second heartbeat');
    expect(stream.events()).toHaveLength(2);

    stream.res.destroy();
    await until(() => data.listeners.size === 0, 'the listener removed');
  });

  it("never carries a calendar feed's key, though the page of the same routes does", async () => {
    const token = 'tok_9Qx-2fQ7wKq1LmZp8RtYvB3nC6dE0aHs';
    const data = new FakeData();
    const clock = new FakeClock(NOW);
    const routes = boardRoutes(data, { coalesceMs: 20, heartbeatMs: 60_000, calendarFeeds: { token, port: 8099 }, clock });
    const port = await serve(routes);
    const stream = await open(port);
    await until(() => stream.events().length === 1, 'the first event');
    data.change([kid('ania', 'Ania', '2')]);
    await clock.advance(20);
    await until(() => stream.events().length === 2, 'the first event and a change');
    expect(stream.events()[1].model.children[0].calendarFeeds).toHaveLength(3);
    expect(stream.text()).not.toContain(token);
    expect(stream.text()).not.toContain(calendarFeedKey(token, 'ania', 'lessons'));
    expect(String(answer(routes, '/')?.body)).toContain(calendarFeedKey(token, 'ania', 'lessons'));
    stream.res.destroy();
  });

  it('keeps the stream alive with comments, and a page that shows the current version gets no repeat', async () => {
    const data = new FakeData();
    const clock = new FakeClock(NOW);
    const routes = boardRoutes(data, { coalesceMs: 50, heartbeatMs: 40, clock });
    const port = await serve(routes);
    const version = JSON.parse(String(answer(routes, '/api/board')?.body)).version as string;
    const stream = await open(port, `/api/events?v=${version}`);
    await until(() => stream.text().startsWith('retry:'), 'the stream open');
    await clock.advance(80);
    await until(() => heartbeats(stream.text()) === 2, 'two heartbeats');
    expect(stream.events()).toHaveLength(0);
    // EventSource's reconnect names the last event it saw; that wins over the URL's.
    const again = await open(port, `/api/events?v=${version}`, { 'Last-Event-ID': 'older' });
    await until(() => again.events().length === 1, 'the board for a page that missed a change');
  });
});
