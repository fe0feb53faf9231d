// What the family board's browser tests share: Debian's Chromium through playwright-core, the real
// bridge with two simulated children and its web server, and a stand-in for Home Assistant's ingress.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromiumPath } from '../../src/bench/chromium.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from './app.js';
import { closeHttp, freePort, listenOnLoopback } from './ports.js';
import type { SimulatedSchool } from './school.js';

/** The browser (src/bench/chromium.ts: CHROMIUM_PATH, else Debian's headless shell, else its `chromium`). */
export const CHROMIUM = chromiumPath();
export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');
export const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];

/**
 * Screenshots for a person to look at, under test/artifacts/: every one a test asks for with D2M_SCREENSHOTS=1
 * (the rendering and encoding cost about a fifth of a second of CPU each, some 60 in a run); otherwise only
 * those of a test that failed, each of its pages as it stood at the failure.
 */
const EVERY_SCREENSHOT = process.env.D2M_SCREENSHOTS === '1';
/** The test under way's screenshots, the last asked of each page: taken only if it fails. */
const asked = new Map<Page, { path: string; fullPage: boolean }>();

/** A screenshot of the board as it stands, named `name` under test/artifacts/ (see EVERY_SCREENSHOT). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const shot = { path: join(ARTIFACTS, name), fullPage: options.fullPage ?? false };
  if (EVERY_SCREENSHOT) await page.screenshot(shot);
  else asked.set(page, shot);
}

/** After a test: if it failed, its pages still open, each under the name of its last screenshot asked for. */
async function screenshotsOfFailure(test: { result?: { state: string } }): Promise<void> {
  const open = [...asked].filter(([page]) => test.result?.state === 'fail' && !page.isClosed());
  asked.clear();
  await Promise.all(open.map(([page, shot]) => page.screenshot(shot).catch(() => undefined)));
}

/** Without the browser the run fails with the advice, unless skipping was asked for by name. */
export const skipBrowser = process.env.SKIP_BROWSER_TESTS === '1';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: the board's browser tests need one (apt-get install chromium-headless-shell or chromium, or set CHROMIUM_PATH; SKIP_BROWSER_TESTS=1 skips them).`,
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  await mkdir(ARTIFACTS, { recursive: true });
  return browser;
}

/**
 * The worker's Chromium: the broker tier runs its files in shared workers (vitest.config.ts, isolate
 * false), so one launch serves every board file a worker runs instead of one per file (a launch is
 * about two thirds of a second of the browser's CPU). Launched again if it went away; Playwright ends
 * it when the worker's process exits.
 */
let shared: Promise<Browser> | undefined;

async function workerBrowser(): Promise<Browser> {
  const running = shared === undefined ? undefined : await shared.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = launchBrowser();
  return shared;
}

/**
 * The Chromium of a test file (the worker's, see workerBrowser), before its tests unless they are
 * skipped; after them every context the file left open (a test that failed half-way) is closed, so
 * nothing of one file runs on into the next.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!skipBrowser) browser = await workerBrowser();
  }, 30_000);
  // A test's own contexts are open still when it failed half-way: its pages are looked at before the file's end closes them.
  afterEach((ctx) => screenshotsOfFailure(ctx.task));
  afterAll(async () => {
    await Promise.all((browser?.contexts() ?? []).map((c) => c.close()));
  });
  return () => {
    if (!browser) throw new Error('no browser: launched only when the browser tests run');
    return browser;
  };
}

/** A page of the board at one size, and what it reported as wrong since it loaded at that size (see pageProblems). */
export interface SizedBoard {
  page: Page;
  problems: string[];
}

/**
 * The board as a tablet of each size first draws it, for a test that looks at several sizes: one context
 * and page per test, sized and then loading the board afresh at each size (a new document, fitted as it
 * first draws at that size). A new context and page at each size cost a renderer process each, about a
 * third of a second of the browser's time apiece; the page closes after the test (passed or failed).
 */
export function useBoardPage(browser: () => Browser): (url: string, width: number, height: number) => Promise<SizedBoard> {
  let context: BrowserContext | undefined;
  let shown: SizedBoard | undefined;
  afterEach(async (ctx) => {
    // Its page looked at first, if the test failed (useBrowser's hook runs after this one has closed it).
    await screenshotsOfFailure(ctx.task);
    await context?.close();
    context = undefined;
    shown = undefined;
  });
  return async (url, width, height) => {
    if (!shown) {
      context = await browser().newContext({ viewport: { width, height } });
      const page = await context.newPage();
      shown = { page, problems: pageProblems(page) };
    } else {
      await shown.page.setViewportSize({ width, height });
    }
    shown.problems.length = 0;
    await shown.page.goto(url);
    await shown.page.waitForSelector('.child');
    return shown;
  };
}

/**
 * What the page reports as wrong from now on: a script error, or a console error or warning (a CSP
 * violation, an inline script or style refused, shows there). A test expects the list empty at its end.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

export interface Bridge {
  h: Harness;
  port: number;
  token: string;
}

/**
 * The bridge with Ania's and Janek's accounts and its web server, after both first passes; `downloads`
 * saves the attachments of an opened message.
 */
export function bridgeWithBoard(
  school: SimulatedSchool,
  ingressAddress?: string,
  options: { downloads?: boolean; poll?: Record<string, string> } = {},
): Promise<Bridge> {
  return bridgeWithChildren(
    school,
    [
      { ...ANIA, id: 'ania' },
      { ...JANEK, id: 'jan' },
    ],
    { ...options, ingressAddress },
  );
}

/** A third child of the family: Ania's world under another name and login (the simulator's account for it is added by the test). */
export const ZOSIA = { login: '5555555u', password: 'demo-zosia', profile: 'ania', firstName: 'Zosia', id: 'zosia' };

/** The bridge with these children's accounts (in the simulator already) and its web server, after every first pass. */
export async function bridgeWithChildren(
  school: SimulatedSchool,
  children: ReadonlyArray<{ login: string; password: string; id: string }>,
  options: { downloads?: boolean; ingressAddress?: string | undefined; poll?: Record<string, string> } = {},
): Promise<Bridge> {
  const port = await freePort();
  const accounts = children.map((a) => ({ login: a.login, password: a.password, ...(options.downloads ? { downloads: true } : {}) }));
  const ingress = options.ingressAddress === undefined ? {} : { ingressAddress: options.ingressAddress };
  const h = await school.start({ accounts, http: { port }, out: { write: () => true }, ...ingress, ...(options.poll ? { poll: options.poll } : {}) });
  // The lucky number where the child's device has one (a kindergarten child's has none).
  const hasLucky = (id: string) => {
    const device = h.rec.json(`${h.prefix}/device/${h.base}_${id}/config`) as { cmps?: Record<string, object> } | undefined;
    return Object.keys(device?.cmps?.lucky_number ?? {}).length > 1;
  };
  await h.runUntil(
    () => children.every((c) => h.state(c.id, 'timetable_today') !== undefined && (h.state(c.id, 'lucky_number') !== undefined || !hasLucky(c.id))),
    'every first pass',
  );
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  return { h, port, token };
}

/** A path-prefix proxy in front of the bridge, as Home Assistant's ingress is (streams pass through). */
export async function ingressProxy(prefix: string, port: number): Promise<Server> {
  const proxy = createServer((req, res) => {
    if (!req.url?.startsWith(`${prefix}/`)) return void res.writeHead(404).end();
    const headers = { ...req.headers, 'x-ingress-path': prefix };
    const upstream = request({ host: '127.0.0.1', port, path: req.url.slice(prefix.length), method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await listenOnLoopback(proxy);
  return proxy;
}

export const closeProxy = closeHttp;
