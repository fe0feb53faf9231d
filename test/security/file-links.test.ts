// /files against the running bridge's web server when the downloads folder holds links. In the app
// data_dir/downloads is itself a link to /media/dziennik2mqtt, which other apps can write: a file
// there is served, but a folder linked from there to data_dir/sessions must not serve the cookie jar.
// The old code looked only at the last part of the path (lstat) and served the jar through the link.
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/portal.js';
import { simulatedSchool } from '../helpers/school.js';
import { getFrom, tokenIn } from '../helpers/security-web.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const TABLET = '127.0.0.5';

describe('/files and links in the downloads folder', () => {
  it('serves a real file under a linked downloads folder, never a file a link inside it leads out to', async () => {
    const dataDir = await tempDir();
    const media = await tempDir();
    await symlink(media, join(dataDir, 'downloads'), 'dir');
    const port = await freePort();
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], http: { port }, dataDir });
    await h.runUntil(() => h.state('ania', 'timetable_today') !== undefined, 'the first pass');
    const token = await tokenIn(dataDir);
    const jars = await readdir(join(dataDir, 'sessions'));
    expect(jars.length).toBeGreaterThan(0);
    const jar = jars[0]!;

    const messages = join(media, 'ania', 'messages');
    await mkdir(join(messages, '111'), { recursive: true });
    await writeFile(join(messages, '111', 'plan.txt'), 'plan lekcji\n');
    // What another app with write access to /media could leave: a folder and a file leading to the jars.
    await symlink(join(dataDir, 'sessions'), join(messages, '222'), 'dir');
    await mkdir(join(messages, '333'));
    await symlink(join(dataDir, 'sessions', jar), join(messages, '333', jar));

    const real = await getFrom(TABLET, port, `/files/ania/111/plan.txt?token=${token}`);
    expect(real.status).toBe(200);
    expect(real.body).toBe('plan lekcji\n');

    for (const target of [`/files/ania/222/${jar}`, `/files/ania/333/${jar}`]) {
      const answer = await getFrom(TABLET, port, `${target}?token=${token}`);
      expect(answer.status, target).toBe(404);
      expect(answer.body, target).not.toContain('cookie');
    }
  });
});
