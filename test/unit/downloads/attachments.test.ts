// Message attachments (spec 4.8) against small local servers standing for the messages and sandbox
// hosts: <link>, then <link>/get with Referer while it answers HTML; links elsewhere are refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { PortalSession } from '../../../src/portal/session.js';
import { Downloader } from '../../../src/portal/attachments/downloader.js';
import { DownloadSlots } from '../../../src/portal/attachments/downloader.js';
import { UnexpectedResponseError } from '../../../src/portal/errors.js';
import { ClockDriver } from '../../helpers/drive.js';
import { FakeClock } from '../../helpers/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/portal.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestHost {
  url: string;
  seen: { method: string; path: string; referer: string | undefined; body: string }[];
  handle: Handler;
  server: Server;
}

let hosts: TestHost[] = [];
let clock: FakeClock;
let driver: ClockDriver;

async function host(address: string): Promise<TestHost> {
  const h: TestHost = { url: '', seen: [], handle: (_, res) => res.end(), server: createServer() };
  h.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      h.seen.push({ method: req.method ?? '', path: req.url ?? '', referer: req.headers.referer, body });
      h.handle(req, res);
    });
  });
  await new Promise<void>((resolve) => h.server.listen(0, address, resolve));
  h.url = `http://${address}:${(h.server.address() as AddressInfo).port}`;
  hosts.push(h);
  return h;
}

beforeEach(() => {
  clock = new FakeClock('2026-11-20T08:00:00+01:00');
  driver = new ClockDriver(clock);
});

afterEach(async () => {
  await Promise.all(hosts.map((h) => new Promise<void>((resolve) => h.server.close(() => resolve()))));
  hosts = [];
});

async function downloader(messages: TestHost, sandbox: TestHost) {
  const urls = {
    base_url: 'http://127.0.0.1:9',
    auth_url: 'http://127.0.0.2:9',
    messages_url: messages.url,
    sandbox_url: sandbox.url,
    family_url: 'http://127.0.0.5:9',
  };
  const session = new PortalSession({ account: 'a', login: 'a', password: 'p', urls, clock, log: silentLogger(), timeoutMs: 5_000 });
  driver.watch(session.http);
  return new Downloader({
    session,
    urls,
    account: 'a',
    child: 'ania',
    dataDir: await tempDir(),
    clock,
    log: silentLogger(),
    slots: new DownloadSlots(),
  });
}

function drive<T>(p: Promise<T>): Promise<T> {
  return driver.drive(p);
}

const waitingPage: Handler = (_, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end('<p>Proszę czekać…</p>');
};

describe('messageAttachment', () => {
  it('opens the link, then asks <link>/get with the link as Referer until it is no longer HTML', async () => {
    const messages = await host('127.0.0.3');
    const sandbox = await host('127.0.0.4');
    let gets = 0;
    messages.handle = (req, res) => {
      if (!req.url?.includes('/get')) return waitingPage(req, res);
      if (++gets < 3) return waitingPage(req, res);
      res.setHeader('content-type', 'application/pdf');
      res.setHeader('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent('Zgoda – wycieczka.pdf')}`);
      res.end('PDF');
    };
    const link = `${messages.url}/api/download/abc?x=1`;
    const saved = await drive(
      (await downloader(messages, sandbox)).messageAttachment({ messageId: 1, attachmentId: 2 }, () => Promise.resolve(link)),
    );
    expect(saved.name).toBe('Zgoda – wycieczka.pdf');
    expect(await readFile(saved.path, 'utf8')).toBe('PDF');
    expect(messages.seen.map((s) => s.path)).toEqual([
      '/api/download/abc?x=1',
      '/api/download/abc/get?x=1',
      '/api/download/abc/get?x=1',
      '/api/download/abc/get?x=1',
    ]);
    expect(messages.seen.slice(1).every((s) => s.referer === link)).toBe(true);
    expect(sandbox.seen).toEqual([]);
  });

  it('stops after a bounded number of HTML answers', async () => {
    const messages = await host('127.0.0.3');
    const sandbox = await host('127.0.0.4');
    messages.handle = waitingPage;
    const result = (await downloader(messages, sandbox)).messageAttachment({ messageId: 1, attachmentId: 2 }, () =>
      Promise.resolve(`${messages.url}/l/1`),
    );
    await expect(drive(result)).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(messages.seen.filter((s) => s.path.endsWith('/get'))).toHaveLength(15);
  });

  it.each([
    ['another host', (other: TestHost) => `${other.url}/l/1`],
    ['the messages host under another scheme', (_: TestHost, messages: TestHost) => messages.url.replace('http:', 'https:') + '/l/1'],
    ['not a URL', () => 'not a url'],
  ])('refuses a link on %s with no request to it', async (_, make) => {
    const messages = await host('127.0.0.3');
    const sandbox = await host('127.0.0.4');
    const other = await host('127.0.0.5');
    const result = (await downloader(messages, sandbox)).messageAttachment({ messageId: 1, attachmentId: 2 }, () =>
      Promise.resolve(make(other, messages)),
    );
    await expect(drive(result)).rejects.toThrow(/refused a download link/);
    expect([...messages.seen, ...sandbox.seen, ...other.seen]).toEqual([]);
  });

  it('runs a sandbox single-use-key link through the key hand-off, asking for a fresh link when a key fails', async () => {
    const messages = await host('127.0.0.3');
    const sandbox = await host('127.0.0.4');
    sandbox.handle = (req, res) => {
      const last = sandbox.seen.at(-1)!;
      const params = req.method === 'POST' ? new URLSearchParams(last.body) : new URL(req.url ?? '', sandbox.url).searchParams;
      const key = params.get('singleUseKey');
      if (params.get('action') === 'CSCheckKey') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ status: key === 'k1' ? 'download_failed' : 'ready' }));
      }
      if (params.get('action') === 'CSDownload') {
        res.setHeader('content-type', 'application/pdf');
        return res.end('PDF');
      }
      waitingPage(req, res);
    };
    let n = 0;
    const getLink = () => Promise.resolve(`${sandbox.url}/index.php?action=CSTryToDownload&singleUseKey=k${++n}`);
    const saved = await drive((await downloader(messages, sandbox)).messageAttachment({ messageId: 1, attachmentId: 2, name: 'plan.pdf' }, getLink));
    expect(saved.name).toBe('plan.pdf');
    expect(n).toBe(2);
    expect(sandbox.seen.filter((s) => s.method === 'POST').map((s) => new URLSearchParams(s.body).get('singleUseKey'))).toEqual(['k1', 'k2']);
  });
});
