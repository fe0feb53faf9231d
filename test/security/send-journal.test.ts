// The send journal against what really happened on disk (issue 28, items 2 and 6). Two runs on one
// config each sent a command's message: each had read the journal once, at its start, and so missed
// the other's send. And a journal entry dated a year ahead (a clock that once ran ahead) made every
// send fail as "less than 10 seconds ago" until that date. The journal is read again before every
// send, and entries from the future are dropped, with one log line saying so.
import { mkdtemp, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SendGuard, type Draft } from '../../src/features/messaging/guard.js';
import type { MessagesApi } from '../../src/portal/messaging-api.js';
import { FakeClock } from '../helpers/clock.js';
import { LogSink } from '../helpers/faults.js';

const LOGIN = '1234567u';
const START = Date.parse('2026-11-23T09:00:00Z');

async function dataDir(ctx: { onTestFinished(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'd2m-journal-'));
  ctx.onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A send guard as an account runner builds it, whose POSTs are counted. */
function guard(dir: string, clock: FakeClock, logs: LogSink): SendGuard {
  const api = { me: () => Promise.resolve({}) } as unknown as MessagesApi;
  return new SendGuard({ account: LOGIN, child: () => 'ania', api, dataDir: dir, clock, log: logs.logger('info') });
}

function draft(posts: string[], text: string): () => Promise<Draft> {
  return () =>
    Promise.resolve({
      recipient: { accountId: 'T-1', label: 'Anna Nowak' },
      topic: 'Nieobecność',
      text,
      post: () => {
        posts.push(text);
        return Promise.resolve({ status: 200, json: { status: 'ok', data: { messageId: String(posts.length) } } });
      },
    });
}

describe('the send journal', () => {
  it('is read again before every send: a second runner on the same data_dir does not send what the first just sent', async (ctx) => {
    const dir = await dataDir(ctx);
    const clock = new FakeClock(START);
    const logs = new LogSink();
    const posts: string[] = [];
    const first = guard(dir, clock, logs);
    const second = guard(dir, clock, logs);
    // Both started (and read the journal) before either sent anything.
    await first.start();
    await second.start();
    await expect(first.send({ kind: 'fixed', label: 'sick' }, draft(posts, 'Ania jest dziś chora.'))).resolves.toMatchObject({ sent: true });
    await clock.advance(30_000);
    await expect(second.send({ kind: 'fixed', label: 'sick' }, draft(posts, 'Ania jest dziś chora.'))).rejects.toMatchObject({
      sent: false,
      code: 'duplicate',
    });
    expect(posts).toHaveLength(1);
    const journal = JSON.parse(await readFile(join(dir, 'messages', `${LOGIN}-sent.json`), 'utf8')) as { entries: { state: string }[] };
    expect(journal.entries.map((e) => e.state)).toEqual(['sent']);
  });

  it('drops entries dated in the future (a clock that ran ahead once), says so once, and sends', async (ctx) => {
    const dir = await dataDir(ctx);
    await mkdir(join(dir, 'messages'), { recursive: true });
    const yearAhead = START + 365 * 24 * 60 * 60_000;
    const future = {
      key: 'f1',
      message: 'sick',
      kind: 'fixed',
      topic: 'Nieobecność',
      at: yearAhead,
      state: 'sent',
      recipient: 'Anna Nowak',
      to: 'T-1',
      digest: 'x',
    };
    await writeFile(join(dir, 'messages', `${LOGIN}-sent.json`), JSON.stringify({ version: 2, entries: [future] }));
    const clock = new FakeClock(START);
    const logs = new LogSink();
    const posts: string[] = [];
    const box = guard(dir, clock, logs);
    await expect(box.send({ kind: 'fixed', label: 'late' }, draft(posts, 'Ania się spóźni.'))).resolves.toMatchObject({ sent: true });
    await clock.advance(60_000);
    await expect(box.send({ kind: 'fixed', label: 'pickup' }, draft(posts, 'Odbiorę Anię o 13.'))).resolves.toMatchObject({ sent: true });
    expect(posts).toEqual(['Ania się spóźni.', 'Odbiorę Anię o 13.']);
    expect(logs.matching(/dated in the future/)).toHaveLength(1);
    expect(logs.matching(/dated in the future/)[0]).toContain(new Date(yearAhead).toISOString());
    const journal = JSON.parse(await readFile(join(dir, 'messages', `${LOGIN}-sent.json`), 'utf8')) as { entries: { at: number }[] };
    expect(journal.entries.every((e) => e.at <= clock.now())).toBe(true);
  });
});
