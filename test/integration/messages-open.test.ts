// Opening a message through the real bridge (interface 7.2, 7.3, 7.4): the portal marks it read, the
// text keeps its line breaks and real link targets, the attachment is saved and served by the web
// server, the opened message survives a restart, and only ids the portal listed are opened.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { loadOrCreateToken } from '../../src/outputs/web/token.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);

const TOPIC = 'Wycieczka do Krakowa – zgody';
const BODY =
  '<p>Szanowni Pa&#324;stwo,</p><p>w piątek wycieczka &ndash; zbi&oacute;rka o 8:00.<br>Zgoda: ' +
  '<a href="https://link.librus.pl/?url=https%3A%2F%2Fszkola.example.pl%2Fzgoda.pdf" title="Link prowadzi poza dziennik">formularz</a></p>' +
  '<p>Anna Nowak</p>';
const ATTACHMENT = { id: '990001', filename: 'zgoda na wycieczkę.pdf' };

async function withMessage(options: { downloads: boolean; port?: number }): Promise<{ h: Harness; id: string }> {
  const message = school.sim.messaging.addMessage(ANIA.login, { topic: TOPIC, body: BODY, from: 162001, attachments: [ATTACHMENT] });
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password, downloads: options.downloads }],
    ...(options.port === undefined ? {} : { http: { port: options.port } }),
  });
  await h.runUntil(() => h.state('ania', 'unread_messages') !== undefined && h.state('ania', 'opened_message') !== undefined, 'the first passes');
  return { h, id: String(message.id) };
}

const readDate = (id: string): string | null | undefined => school.sim.messaging.findMessage(ANIA.login, Number(id))?.readDate;

describe('open_message', () => {
  it('opens the newest unread message: read in the portal, the text with its line breaks, the attachment saved and served', async () => {
    const port = await freePort();
    const { h, id } = await withMessage({ downloads: true, port });
    expect(h.state('ania', 'opened_message')).toBe('None');
    expect(readDate(id)).toBeNull();

    const result = await command(h, 'ania', 'open_message', 'newest', school.clock);
    expect(result).toEqual({ status: 'ok', message_id: id, mailbox: 'inbox', attachments: 1 });
    expect(readDate(id)).not.toBeNull();

    await h.runUntil(() => h.state('ania', 'opened_message') === TOPIC, 'the opened message');
    const attributes = h.attributes('ania', 'opened_message')!;
    expect(attributes).toMatchObject({ message_id: id, mailbox: 'inbox', truncated: false, can_reply: true });
    expect(attributes.sender).toMatch(/Anna/);
    expect(attributes.text).toBe(
      'Szanowni Państwo,\n\nw piątek wycieczka – zbiórka o 8:00.\nZgoda: formularz (https://szkola.example.pl/zgoda.pdf)\n\nAnna Nowak',
    );

    const [saved] = attributes.attachments as { name: string; size: number; path: string; url: string }[];
    const expected = school.sim.downloads.file('attachment', ATTACHMENT.id, ATTACHMENT.filename).body;
    expect(saved).toEqual({
      name: ATTACHMENT.filename,
      size: Buffer.byteLength(expected),
      path: join(h.dataDir, 'downloads', 'ania', 'messages', id, ATTACHMENT.filename),
      url: `/files/ania/${id}/${encodeURIComponent(ATTACHMENT.filename)}`,
    });
    expect(await readFile(saved!.path, 'utf8')).toBe(expected);

    const token = (await loadOrCreateToken(h.dataDir)).value;
    const served = await send(port, `${saved!.url}?token=${token}`);
    expect(served.status).toBe(200);
    expect(served.body).toBe(expected);
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(port, saved!.url)).status).toBe(401);
    // Only that folder: no way up from it, not the store's own index, not another child.
    for (const target of [
      `/files/ania/${id}/..%2F..%2F..%2Fhttp-token`,
      `/files/ania/${id}/.index.json`,
      `/files/janek/${id}/${encodeURIComponent(ATTACHMENT.filename)}`,
    ]) {
      expect((await send(port, `${target}?token=${token}`)).status, target).toBe(404);
    }
  });

  it('takes an opened message out of the unread list and the unread count together, without waiting for the next pass', async () => {
    const { h, id } = await withMessage({ downloads: false });
    const unreadIds = () => ((h.attributes('ania', 'newest_message')?.unread ?? []) as { id: string }[]).map((m) => m.id);
    const count = Number(h.state('ania', 'unread_messages'));
    expect(unreadIds()).toContain(id);
    await command(h, 'ania', 'open_message', id);
    // The clock stands still: only the pass the opening asks for at once (readAgain) can move them.
    await h.runUntil(
      () => h.state('ania', 'opened_message') === TOPIC && Number(h.state('ania', 'unread_messages')) === count - 1,
      'the opened message',
    );
    // What the board lists under that count (newest_message's `unread`, printed as it is): the opened one gone in the same pass.
    expect(unreadIds()).not.toContain(id);
  });

  it('keeps the opened message across a restart', async () => {
    const { h, id } = await withMessage({ downloads: false });
    await command(h, 'ania', 'open_message', JSON.stringify({ id, transaction: 't1' }));
    await h.runUntil(() => h.state('ania', 'opened_message') === TOPIC, 'the opened message');
    const before = h.attributes('ania', 'opened_message');
    const topic = `${h.base}/ania/opened_message`;
    const published = h.rec.on(topic).length;
    await h.restart();
    await h.runUntil(() => h.rec.on(topic).length > published, 'opened_message published by the new run');
    expect(h.state('ania', 'opened_message')).toBe(TOPIC);
    expect(h.attributes('ania', 'opened_message')).toEqual(before);
  });

  it('without downloads lists the attachment by name and saves nothing', async () => {
    const { h, id } = await withMessage({ downloads: false });
    expect(await command(h, 'ania', 'open_message', id)).toMatchObject({ status: 'ok', message_id: id });
    await h.runUntil(() => h.state('ania', 'opened_message') === TOPIC, 'the opened message');
    expect(h.attributes('ania', 'opened_message')?.attachments).toEqual([{ name: ATTACHMENT.filename }]);
    expect(existsSync(join(h.dataDir, 'downloads'))).toBe(false);
    expect(school.sim.downloads.served).toHaveLength(0);
  });

  it('opens only a message the portal listed: any other id is refused and nothing is read', async () => {
    const { h, id } = await withMessage({ downloads: false });
    for (const payload of ['12345', '../../me', '']) {
      const result = await command(h, 'ania', 'open_message', payload);
      expect(result.status, payload).toBe('error');
    }
    expect(school.sim.count({ host: 'messages', path: '/api/inbox/messages/12345' })).toBe(0);
    expect(readDate(id)).toBeNull();
    expect(h.state('ania', 'opened_message')).toBe('None');
  });
});
