// Downloads on the family road (interface 9, issue 39): through the real bridge with an `email` entry,
// a message's attachment and a homework file are fetched over the child's register web session, which
// this road opens with AutoLoginToken (never a register password login), saved and served as on the
// register road.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { loadOrCreateToken } from '../../src/outputs/web/token.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);
const ATTACHMENT = { id: '990002', filename: 'plan wycieczki.pdf' };
/** Ania's maths worksheet (file 771 of HomeWorkAssignments 4402), due on the next school day. */
const SHEET = join('homework', '771', 'karta_pracy_ulamki.pdf');

describe('downloads on the family road', () => {
  it('saves and serves a message’s attachment and a homework file through the session AutoLoginToken opens', async () => {
    const message = school.sim.messaging.addMessage(ANIA.login, {
      topic: 'Plan wycieczki',
      body: '<p>W załączniku plan.</p>',
      from: 162001,
      attachments: [ATTACHMENT],
    });
    const id = String(message.id);
    const port = await freePort();
    const h = await school.start({
      accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password, children: [{ login: ANIA.login, downloads: true }] }] as never,
      http: { port },
    });
    const sheet = join(h.dataDir, 'downloads', 'ania', SHEET);
    await h.runUntil(() => h.state('ania', 'opened_message') !== undefined && existsSync(sheet), 'the first passes and the worksheet on disk');
    expect(await readFile(sheet, 'utf8')).toContain('karta_pracy_ulamki.pdf');

    const result = await command(h, 'ania', 'open_message', id, school.clock);
    expect(result).toEqual({ status: 'ok', message_id: id, mailbox: 'inbox', attachments: 1 });
    await h.runUntil(() => h.state('ania', 'opened_message') === 'Plan wycieczki', 'the opened message');
    const [saved] = h.attributes('ania', 'opened_message')!.attachments as { name: string; size: number; path: string; url: string }[];
    const expected = school.sim.downloads.file('attachment', ATTACHMENT.id, ATTACHMENT.filename).body;
    expect(saved).toMatchObject({ name: ATTACHMENT.filename, path: join(h.dataDir, 'downloads', 'ania', 'messages', id, ATTACHMENT.filename) });
    expect(await readFile(saved!.path, 'utf8')).toBe(expected);

    const token = (await loadOrCreateToken(h.dataDir)).value;
    for (const [url, body] of [
      [saved!.url, expected],
      [`/files/ania/${SHEET.split('\\').join('/')}`, await readFile(sheet, 'utf8')],
    ] as const) {
      const served = await send(port, `${url}?token=${token}`);
      expect([served.status, served.body], url).toEqual([200, body]);
    }

    // The road in was the family's: one e-mail login, the web session opened by AutoLoginToken, no register login.
    expect([school.sim.families.loginCount(), school.sim.logins()]).toEqual([1, 0]);
    expect(school.sim.count({ host: 'auth', method: 'POST', path: '/2.0/AutoLoginToken' })).toBeGreaterThan(0);
    expect(school.sim.downloads.served.length).toBeGreaterThanOrEqual(2);
  });
});
