// File downloads (spec 4.6) through the real client against the simulated portal and sandbox, with a
// fake clock driving the key checks and the 150 s deadline.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { silentLogger } from '../../src/util/log.js';
import { ConnectionError, UnexpectedResponseError } from '../../src/portal/errors.js';
import { Downloader } from '../../src/portal/attachments/downloader.js';
import { DownloadSlots } from '../../src/portal/attachments/downloader.js';
import { portalClient, tempDir } from '../helpers/portal.js';
import { ClockDriver } from '../helpers/drive.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
/** A homework file of Ania's fixture (HomeWorkAssignments 4402). */
const SHEET = 771;

let sim: PortalSimulator;
let clock: FakeClock;
let driver: ClockDriver;
let dataDir: string;
let other: { server: Server; url: string; hits: string[] } | undefined;

beforeEach(async () => {
  clock = new FakeClock('2026-11-20T08:00:00+01:00');
  driver = new ClockDriver(clock);
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  dataDir = await tempDir();
});

afterEach(async () => {
  await sim.stop();
  if (other) await new Promise<void>((resolve) => other?.server.close(() => resolve()));
  other = undefined;
});

function downloader(account = ANIA, slots = new DownloadSlots()) {
  const { session } = portalClient({ sim, clock, login: account.login, password: account.password });
  driver.watch(session.http);
  const child = account === ANIA ? 'ania' : 'janek';
  return {
    session,
    downloads: new Downloader({ session, urls: sim.urls, account: account.login, child, dataDir, clock, log: silentLogger(), slots }),
  };
}

/** Moves the fake clock between requests of the downloaders made since the test began (see ClockDriver). */
function drive<T>(p: Promise<T>, maxSeconds = 400): Promise<T> {
  return driver.drive(p, maxSeconds);
}

/** A server standing for a host the config does not name; it records every request it gets. */
async function otherHost(): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('file');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  other = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
  return other;
}

const keyChecks = () => sim.requests.filter((r) => r.host === 'sandbox' && r.method === 'POST');

describe('homework files (spec 4.6)', () => {
  it('follows the key to the file and saves it 0600 under downloads/<child>/', async () => {
    sim.downloads.keyWait = 3;
    const { downloads } = downloader();
    const saved = await drive(downloads.homeworkFile(SHEET, 'ignored-when-the-answer-names-the-file.pdf'));
    expect(saved.path).toBe(join(dataDir, 'downloads', 'ania', 'karta_pracy_ulamki.pdf'));
    expect(await readFile(saved.path, 'utf8')).toContain('karta_pracy_ulamki.pdf');
    expect((await stat(saved.path)).mode & 0o777).toBe(0o600);
    const checks = keyChecks();
    expect(checks).toHaveLength(4);
    const gaps = checks.slice(1).map((c, i) => c.at - checks[i]!.at);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(5_000);
      expect(gap).toBeLessThanOrEqual(10_000);
    }
  });

  it('takes a third key when the first answers download_failed and the second no JSON', async () => {
    sim.downloads.nextKeys('download_failed', 'not_json');
    const { downloads } = downloader();
    const saved = await drive(downloads.homeworkFile(SHEET));
    expect(saved.name).toBe('karta_pracy_ulamki.pdf');
    expect(sim.downloads.keysIssued).toBe(3);
    expect(sim.count({ host: 'portal', path: `/homework/downloadFile/${SHEET}` })).toBe(3);
  });

  it('gives up after three failed keys', async () => {
    sim.downloads.nextKeys('download_failed', 'download_failed', 'not_json', 'ok');
    const { downloads } = downloader();
    await expect(drive(downloads.homeworkFile(SHEET))).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(sim.downloads.keysIssued).toBe(3);
    expect(sim.downloads.served).toHaveLength(0);
  });

  it('gives up after 150 s with ConnectionError while a key stays not_downloaded_yet', async () => {
    sim.downloads.keyWait = Infinity;
    const slots = new DownloadSlots();
    const { session, downloads } = downloader(ANIA, slots);
    await session.ensure();
    const start = clock.now();
    let failedAt = 0;
    const result = downloads.homeworkFile(SHEET).catch((error: unknown) => {
      failedAt = clock.now();
      throw error;
    });
    await expect(drive(result)).rejects.toBeInstanceOf(ConnectionError);
    expect(failedAt - start).toBeGreaterThanOrEqual(150_000);
    // The driver moves the clock a second at a time while no request is in flight, so the rejection may be
    // seen a step or two after the deadline (under load it was 152 s once): still the 150 s, not minutes on.
    expect(failedAt - start).toBeLessThanOrEqual(153_000);
    expect(slots.active).toBe(0);
    // 15 checks on the first key take about two minutes; the second key is cut off by the deadline.
    expect(sim.downloads.keysIssued).toBe(2);
  });

  it('refuses a redirect to another host and sends it nothing', async () => {
    const elsewhere = await otherHost();
    sim.downloads.redirectTo(`${elsewhere.url}/index.php?action=CSTryToDownload&singleUseKey=abc`);
    const { downloads } = downloader();
    await expect(drive(downloads.homeworkFile(SHEET))).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(elsewhere.hits).toEqual([]);
    expect(sim.count({ host: 'sandbox' })).toBe(0);
  });

  it.each([
    [
      'the sandbox host under another scheme',
      (sandbox: string) => sandbox.replace('http:', 'https:') + '/index.php?action=CSTryToDownload&singleUseKey=k',
    ],
    ['the sandbox host on another port', (sandbox: string) => sandbox.replace(/:\d+$/, ':1') + '/index.php?action=CSTryToDownload&singleUseKey=k'],
    ['an invalid URL', () => 'http://[not-a-host/index.php'],
  ])('refuses a redirect to %s', async (_, target) => {
    sim.downloads.redirectTo(target(sim.urls.sandbox_url));
    const { downloads } = downloader();
    await expect(drive(downloads.homeworkFile(SHEET))).rejects.toThrow(/refused a redirect/);
    expect(sim.count({ host: 'sandbox' })).toBe(0);
  });

  it('keeps a hostile Content-Disposition name inside the child folder', async () => {
    sim.downloads.overrideFile('homework', SHEET, { name: '../../etc/passwd' });
    const { downloads } = downloader();
    const saved = await drive(downloads.homeworkFile(SHEET));
    const folder = join(dataDir, 'downloads', 'ania');
    expect(saved.path.startsWith(`${folder}${sep}`)).toBe(true);
    expect(saved.name).toBe('passwd');
    expect(await readdir(folder)).toContain('passwd');
  });

  it('keeps Polish letters from filename*', async () => {
    sim.downloads.overrideFile('homework', SHEET, { name: 'Zadanie – źdźbło żółwia.pdf' });
    const saved = await drive(downloader().downloads.homeworkFile(SHEET));
    expect(saved.name).toBe('Zadanie – źdźbło żółwia.pdf');
  });

  it('treats the logged-out page as an expired session: exactly one login, then the file', async () => {
    const { session, downloads } = downloader();
    await session.ensure();
    sim.resetCounts();
    sim.downloads.expireWebSession(ANIA.login);
    const saved = await drive(downloads.homeworkFile(SHEET));
    expect(saved.name).toBe('karta_pracy_ulamki.pdf');
    expect(sim.logins(ANIA.login)).toBe(1);
    expect(sim.count({ host: 'portal', path: `/homework/downloadFile/${SHEET}` })).toBe(2);
  });

  it('raises a "file does not exist" page as an error without logging in', async () => {
    const { session, downloads } = downloader();
    await session.ensure();
    sim.resetCounts();
    const error = await drive(downloads.homeworkFile(999_999)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).code).toBe('NotFound');
    expect(sim.logins()).toBe(0);
    expect(sim.count({ host: 'sandbox' })).toBe(0);
  });

  it('does not fetch a file again once it is saved', async () => {
    const { downloads } = downloader();
    const first = await drive(downloads.homeworkFile(SHEET));
    sim.resetCounts();
    const again = await drive(downloader().downloads.homeworkFile(SHEET));
    expect(again.path).toBe(first.path);
    expect(sim.count({ path: `/homework/downloadFile/${SHEET}` })).toBe(0);
  });

  it('runs at most two downloads at once, across accounts', async () => {
    sim.setLatency(40, { host: 'sandbox' });
    const slots = new DownloadSlots();
    const ania = downloader(ANIA, slots).downloads;
    const janek = downloader(JANEK, slots).downloads;
    const all = Promise.all([
      ania.schoolFile('/pliki_szkoly/pobierz/31'),
      ania.schoolFile('/pliki_szkoly/pobierz/32'),
      janek.schoolFile('/pliki_szkoly/pobierz/31'),
      janek.schoolFile('/pliki_szkoly/pobierz/33'),
    ]);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, slots.active)), 2);
    await drive(all).finally(() => clearInterval(sampler));
    expect(most).toBe(2);
    expect(slots.active).toBe(0);
    expect(sim.downloads.served.filter((s) => s.kind === 'school')).toHaveLength(4);
  });
});

describe('school files (spec 4.6.8)', () => {
  it('downloads through the GetFile link', async () => {
    const saved = await drive(downloader().downloads.schoolFile('/pliki_szkoly/pobierz/33'));
    expect(saved.name).toBe('Wyprawka – lista przyborów klasy 1–3.docx');
  });

  it.each(['https://evil.example/pliki_szkoly/pobierz/31', '//evil.example/pliki_szkoly/pobierz/31', 'http://[bad'])(
    'refuses %s before any request',
    async (path) => {
      const { downloads } = downloader();
      await expect(downloads.schoolFile(path)).rejects.toBeInstanceOf(UnexpectedResponseError);
      expect(sim.requests).toHaveLength(0);
    },
  );

  it('refuses a path that leads to another host the config does not name', async () => {
    const elsewhere = await otherHost();
    const { downloads } = downloader();
    await expect(downloads.schoolFile(`${elsewhere.url}/pliki_szkoly/pobierz/31`)).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(elsewhere.hits).toEqual([]);
  });
});

describe('message attachments (spec 4.8)', () => {
  it('fetches <link>/get with the link as Referer, again while it answers HTML', async () => {
    sim.downloads.attachmentWaits = 2;
    const { session, downloads } = downloader();
    let links = 0;
    const saved = await drive(
      downloads.messageAttachment({ messageId: 5, attachmentId: 77, name: 'fallback.pdf' }, () => {
        links++;
        return Promise.resolve(sim.downloads.attachmentLink(ANIA.login, 77, 'Zgoda na wycieczkę.pdf'));
      }),
    );
    expect(saved.name).toBe('Zgoda na wycieczkę.pdf');
    expect(links).toBe(1);
    expect(sim.count({ host: 'sandbox', path: /\/get$/ })).toBe(3);
    expect(session.loginCount).toBe(0);
  });

  it('refuses a link on a host the config does not name, with no request to it', async () => {
    const elsewhere = await otherHost();
    const { downloads } = downloader();
    const result = downloads.messageAttachment({ messageId: 5, attachmentId: 77 }, () => Promise.resolve(`${elsewhere.url}/attachments/x`));
    await expect(drive(result)).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(elsewhere.hits).toEqual([]);
  });
});

describe('the simulated sandbox', () => {
  it("hands a key's file out once", async () => {
    const { downloads } = downloader();
    await drive(downloads.homeworkFile(SHEET));
    const [key] = [...sim.downloads.keys.keys()];
    const again = await fetch(`${sim.urls.sandbox_url}/index.php?action=CSDownload&singleUseKey=${key}`);
    expect(again.headers.get('content-disposition')).toBeNull();
    expect(await again.text()).toContain('nie istnieje');
  });
});
