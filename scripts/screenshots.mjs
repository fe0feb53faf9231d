// `npm run screenshots`: the pictures of docs/images/ from the real thing. Starts the demo (the real
// bridge against the simulated school, with its embedded broker and its web server), takes the family
// board at 1280x800 in Chromium, then renders the Home Assistant dashboard with
// scripts/dashboard-preview.mjs (which runs the bridge at a fixed school-day moment on the demo's
// broker and hands the dashboard to shared/tools/render-dashboard.py) and takes its first view.
// Usage: npm run screenshots [-- --at 2026-11-23T09:30:00+01:00] [--lang pl|en|uk]
//        (Chromium: $CHROMIUM_PATH, /usr/bin/chromium-headless-shell or /usr/bin/chromium; python3 with jinja2, yaml and markdown)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { needsBuild } from './demo.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const IMAGES = join(ROOT, 'docs/images');
const VIEWPORT = { width: 1280, height: 800 };
const { values: args } = parseArgs({
  options: {
    // A Monday's second lesson: the dashboard shows a school day in progress.
    at: { type: 'string', default: '2026-11-23T09:30:00+01:00' },
    lang: { type: 'string', default: 'pl' },
  },
});

/** A port nobody listens on now, on the loopback address. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** The demo as a child process; resolves with its board address once both children have been read. */
async function startDemo(mqttPort) {
  const demo = spawn(process.execPath, [join(ROOT, 'dist/main.js'), 'demo', '--port', String(mqttPort)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const board = await new Promise((resolveBoard, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo printed no board address in 60 s:\n${output}`)), 60_000);
    demo.once('exit', (code) => reject(new Error(`the demo stopped (${code}):\n${output}`)));
    demo.stdout.on('data', (chunk) => {
      output += chunk.toString();
      // The board's address, with the access token, is printed once the web server runs.
      const match = /(?:board|tablica|дошка)[^:\n]*:\s+(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveBoard(match[1]);
      }
    });
  });
  // The printed address names this machine's address (or `<this-machine>` in a container); the
  // board is read on loopback.
  return { demo, boardUrl: board.replace(/^http:\/\/[^/]+:(\d+)/, 'http://127.0.0.1:$1') };
}

async function shoot(browser, address, path, ready) {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(address);
  await ready(page);
  await page.screenshot({ path });
  await page.close();
  process.stdout.write(`wrote ${path.slice(ROOT.length + 1)}\n`);
}

async function main() {
  const why = needsBuild(ROOT);
  if (why !== undefined) {
    process.stderr.write(`building once (${why})...\n`);
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // The tests' choice of browser, from the build (src/bench/chromium.ts).
  const { chromiumPath } = await import('../dist/bench/chromium.js');
  const CHROMIUM = chromiumPath();
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium-headless-shell or chromium, or set CHROMIUM_PATH)`);
  await mkdir(IMAGES, { recursive: true });
  const mqttPort = await freePort();
  const { demo, boardUrl } = await startDemo(mqttPort);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'] });
  const work = await mkdtemp(join(tmpdir(), 'd2m-screenshots-'));
  try {
    // Both children's cards, once the first passes have filled them (the board updates itself).
    await shoot(browser, boardUrl, join(IMAGES, 'board.png'), async (page) => {
      // Locators, not a function evaluated in the page: the board's CSP forbids eval.
      await page.locator('.child').nth(1).waitFor({ timeout: 60_000 });
      await page.locator('.warning-waiting').first().waitFor({ state: 'detached', timeout: 60_000 });
    });
    // The dashboard, on the demo's broker, rendered to HTML (no screenshot of the renderer's own).
    const preview = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/dashboard-preview.mjs'), '--at', args.at, '--lang', args.lang, '--out', work, '--no-screenshot'],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, MQTT_URL: `mqtt://127.0.0.1:${mqttPort}` } },
    );
    if (preview.status !== 0) throw new Error(`scripts/dashboard-preview.mjs failed (${preview.status})`);
    // The first view is the family view, every child side by side.
    const pages = (await readdir(work)).filter((f) => f.endsWith('.html')).sort();
    const family = pages.find((f) => /rodzina|family/.test(f)) ?? pages[0];
    if (family === undefined) throw new Error(`the renderer wrote no view into ${work}`);
    await shoot(browser, `file://${join(work, family)}`, join(IMAGES, 'dashboard.png'), async (page) => {
      await page.waitForLoadState('load');
    });
  } finally {
    await browser.close();
    // Stopped and waited for, so that it never writes into a closed pipe.
    const stopped = new Promise((resolveExit) => demo.once('exit', resolveExit));
    demo.kill('SIGTERM');
    await stopped;
    await rm(work, { recursive: true, force: true });
  }
}

await main();
