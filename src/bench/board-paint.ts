// The family board as a wall tablet loads it, in real time: the real bridge with its web server on,
// two children on the simulated portal (in its own process), an embedded broker, and Debian's
// Chromium (playwright-core, a development dependency, like the bench itself) at 1280x800. Measures
// the first contentful paint and every byte the page brought (its event stream included), with the
// browser's cache off. Run alone: `node dist/bench/board-paint.js`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from '../app/app.js';
import { buildConfig } from '../config/load.js';
import { silentLogger } from '../util/log.js';
import { freeTcpPort } from './free-port.js';
import { realWorld } from './real-world.js';
import { benchLogin } from './accounts.js';
import { chromiumPath } from './chromium.js';
import { WEB } from '../outputs/web/output.js';

const CHROMIUM = chromiumPath();

export interface BoardPaint {
  /** First contentful paint, ms after navigation started; one value per load. */
  paintMs: number[];
  /** Bytes transferred for the whole page, of the first load. */
  bytes: number;
}

/** Loads the board `loads` times (a fresh browser context each) once both children have published. */
export async function boardPaint(loads = 5): Promise<BoardPaint | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  const world = await realWorld(2, 'board');
  const { urls, mqttUrl, dataDir } = world;
  const webPort = await freeTcpPort();
  const config = await buildConfig(
    {
      mqtt: { url: mqttUrl },
      portal: urls,
      accounts: [0, 1].map((i) => ({ login: benchLogin(i).login, password: benchLogin(i).password, id: `child${i}` })),
      data_dir: dataDir,
      http: { port: webPort, bind: '127.0.0.1' },
    },
    'bench',
    { env: {} },
  );
  const app = new App({ config, version: 'bench', log: silentLogger(), staggerMs: 0, out: { write: () => true } });
  await app.start();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    const published = () => (app.outputOf(WEB)?.snapshot?.children() ?? []).filter((c) => c.states.has('timetable_today')).length === 2;
    for (let waited = 0; !published(); waited += 100) {
      if (waited > 60_000) throw new Error('board bench: the children were not published within a minute');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = (await readFile(join(dataDir, 'http-token'), 'utf8')).trim();
    const paintMs: number[] = [];
    let bytes = 0;
    for (let load = 0; load < loads; load++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      let loaded = 0;
      const streams = new Set<string>();
      cdp.on('Network.requestWillBeSent', (e) => {
        if (e.request.url.includes('api/events')) streams.add(e.requestId);
      });
      cdp.on('Network.loadingFinished', (e) => (loaded += e.encodedDataLength));
      // The event stream never finishes loading: count what it brought.
      cdp.on('Network.dataReceived', (e) => {
        if (streams.has(e.requestId)) loaded += e.encodedDataLength;
      });
      await page.goto(`http://127.0.0.1:${webPort}/?token=${token}`, { waitUntil: 'load' });
      await page.waitForSelector('.child');
      await page.waitForTimeout(300);
      const paint = (await page.evaluate(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`)) as number;
      paintMs.push(Math.round(paint));
      if (load === 0) bytes = loaded;
      await context.close();
    }
    return { paintMs, bytes };
  } finally {
    await browser.close();
    await app.stop();
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await boardPaint();
  process.stdout.write(`${result === undefined ? `no Chromium at ${CHROMIUM}` : JSON.stringify(result)}\n`);
}
