// The add-on's AppArmor profile (issue 20, item 16) must let the program do what it does, and no more:
// downloads hard-link into /data and /media/dziennik2mqtt (l), and only node and what run.sh needs may
// run. The profile is read here and checked against run.sh, the Dockerfile and the entry script;
// apparmor_parser (Debian's `apparmor` package) compiles it when it is installed, else that one check
// is skipped. And where a confinement refuses link() all the same, a download still gets its name.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DownloadStore } from '../../src/portal/attachments/saved.js';
import { saveBody } from '../helpers/downloads.js';
import { REPO } from '../helpers/faults-process.js';
import { tempDir } from '../helpers/temp.js';

const PROFILE = join(REPO, 'hassio-addon', 'apparmor.txt');
const text = readFileSync(PROFILE, 'utf8');

/** The profile's file rules: path -> its permission letters (comments dropped). */
function fileRules(profile: string): Map<string, string> {
  const rules = new Map<string, string>();
  for (const raw of profile.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const rule = /^(\/\S*|@\{PROC\}\S*)\s+([a-zA-Z]+),$/.exec(line);
    if (rule) rules.set(rule[1]!, rule[2]!);
  }
  return rules;
}

const rules = fileRules(text);
const has = (path: string, letters: string): boolean => [...letters].every((l) => (rules.get(path) ?? '').includes(l));

const PARSER = ['/usr/sbin/apparmor_parser', '/sbin/apparmor_parser'].find((p) => existsSync(p));

describe("the add-on's AppArmor profile", () => {
  it.skipIf(PARSER === undefined)('compiles with apparmor_parser (skipped when it is not installed)', async () => {
    // -Q: do not load it into the kernel; -K: no cache. A syntax error exits non-zero.
    await expect(promisify(execFile)(PARSER!, ['-Q', '-K', PROFILE])).resolves.toBeDefined();
  });

  it('grants l (hard links) where downloads are saved, and what data_dir needs', () => {
    expect(has('/data/**', 'rwkl')).toBe(true);
    expect(has('/media/dziennik2mqtt/**', 'rwl')).toBe(true);
    expect(has('/config/**', 'rw')).toBe(true);
    expect(has('/app/**', 'r')).toBe(true);
  });

  it('lets only node and what run.sh needs run: no glob in any exec rule', () => {
    const exec = [...rules]
      .filter(([, perms]) => perms.includes('x'))
      .map(([path]) => path)
      .sort();
    expect(exec).toEqual(['/app/dist/main.js', '/bin/busybox', '/run.sh', '/sbin/docker-init', '/usr/local/bin/node']);
    for (const path of exec) expect(path, path).not.toMatch(/[*?{[]/);
    // Executed in the profile itself (ix), never unconfined or in another profile.
    for (const path of exec) expect(rules.get(path), path).toMatch(/ix/);
  });

  it('covers every command run.sh runs and the entry script it starts', () => {
    const script = readFileSync(join(REPO, 'hassio-addon', 'run.sh'), 'utf8');
    expect(script.split('\n')[0]).toBe('#!/bin/sh');
    const commands = new Set(
      script
        .split('\n')
        .map((l) => l.replace(/#.*$/, '').trim())
        .filter((l) => l !== '' && !/^(set|fi|else|then)\b/.test(l))
        .map((l) => l.replace(/^(if|exec)\s+/, '').split(/\s+/)[0]!),
    );
    // Shell words and builtins aside, what it runs: busybox applets and the bridge's link.
    for (const word of ['echo']) commands.delete(word);
    expect([...commands].sort()).toEqual(['dziennik2mqtt', 'mv', 'rm']);
    // mv, rm and /bin/sh are busybox applets in the Alpine image; the bridge's link leads to main.js.
    expect(readFileSync(join(REPO, 'Dockerfile'), 'utf8')).toContain('ln -s /app/dist/main.js /usr/local/bin/dziennik2mqtt');
    expect(readFileSync(join(REPO, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:\S+-alpine AS runtime$/m);
    // main.js starts with #!/usr/bin/env node: env is busybox, node is /usr/local/bin/node.
    expect(readFileSync(join(REPO, 'src', 'main.ts'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(has('/run.sh', 'r')).toBe(true);
    expect(has('/app/dist/main.js', 'r')).toBe(true);
  });
});

describe('a download where link() is refused', () => {
  it.each(['EACCES', 'EPERM'])('link() failing with %s: the file gets its name by a rename, no temp file left', async (code) => {
    const dataDir = await tempDir();
    let links = 0;
    const refuse = (): Promise<void> => {
      links++;
      return Promise.reject(Object.assign(new Error(`${code}: operation not permitted, link`), { code }));
    };
    const store = new DownloadStore({ dataDir, child: 'ania', link: refuse });
    const first = await saveBody(store, Buffer.from('one'), 'plan.pdf', 'plik', 'homework-1');
    const again = await saveBody(store, Buffer.from('two'), 'plan.pdf', 'plik', 'homework-2');
    const same = await saveBody(store, Buffer.from('one'), 'plan.pdf', 'plik', 'homework-3');
    expect(links).toBeGreaterThan(0);
    expect([first.name, again.name, same.name]).toEqual(['plan.pdf', 'plan (2).pdf', 'plan.pdf']);
    expect(await readFile(first.path, 'utf8')).toBe('one');
    expect(await readFile(again.path, 'utf8')).toBe('two');
    expect((await readdir(store.dir)).sort()).toEqual(['.index.json', 'plan (2).pdf', 'plan.pdf']);
  });

  it('another link() error is not taken for "no links here"', async () => {
    const refuse = (): Promise<void> => Promise.reject(Object.assign(new Error('EIO: i/o error, link'), { code: 'EIO' }));
    const store = new DownloadStore({ dataDir: await tempDir(), child: 'ania', link: refuse });
    await expect(saveBody(store, Buffer.from('one'), 'plan.pdf', 'plik')).rejects.toThrow('EIO');
  });
});
