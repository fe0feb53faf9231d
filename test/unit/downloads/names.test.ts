// Saved file names: whatever Content-Disposition says, the file lands in the child's folder, keeps its
// Polish letters, and never replaces a different file.
import { describe, expect, it } from 'vitest';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { DownloadStore, safeFileName } from '../../../src/portal/attachments/saved.js';
import { saveBody } from '../../helpers/downloads.js';
import { dispositionName } from '../../../src/portal/attachments/answers.js';
import { tempDir } from '../../helpers/portal.js';

const HOSTILE: [string, string][] = [
  ['../../etc/passwd', 'passwd'],
  ['..\\x', 'x'],
  ['/abs', 'abs'],
  ['C:\\Windows\\system32\\cmd.exe', 'cmd.exe'],
  ['a\u0000b.pdf', 'ab.pdf'],
  ['\u0000', 'plik'],
  ['..', 'plik'],
  ['.', 'plik'],
  ['...', 'plik'],
  ['.bashrc', 'bashrc'],
  ['   ', 'plik'],
  ['evil\u202Efdp.exe', 'evilfdp.exe'],
  ['line\nbreak.txt', 'linebreak.txt'],
  ['what?<>:"|*.pdf', 'what_______.pdf'],
  ['NUL.txt', '_NUL.txt'],
  ['Sprawdzian – źdźbło ŻÓŁĆ.pdf', 'Sprawdzian – źdźbło ŻÓŁĆ.pdf'],
  ['trailing dots...', 'trailing dots'],
];

describe('safeFileName', () => {
  it.each(HOSTILE)('%j -> %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  it('cuts a very long name to 150 bytes on a character boundary and keeps the extension', () => {
    const name = safeFileName(`${'ż'.repeat(500)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150);
    expect(name.endsWith('ż.pdf')).toBe(true);
    expect(name).not.toContain('\uFFFD');
  });

  it('uses the fallback when nothing is left', () => {
    expect(safeFileName('../..', 'zadanie-771')).toBe('zadanie-771');
    expect(safeFileName(undefined, '../zadanie')).toBe('zadanie');
  });
});

describe('DownloadStore.place', () => {
  const names = [...HOSTILE.map(([raw]) => raw), 'x'.repeat(5000), `${'../'.repeat(40)}etc/shadow`];

  it.each(names.map((n) => [n.length > 60 ? `${n.slice(0, 20)}…(${n.length} chars)` : n, n]))(
    'keeps %j inside data_dir/downloads/<child>/',
    async (_, raw) => {
      const dataDir = await tempDir();
      const store = new DownloadStore({ dataDir, child: '../ania' });
      const folder = join(dataDir, 'downloads', '__ania');
      const saved = await saveBody(store, Buffer.from('data'), raw, 'plik');
      expect(store.dir).toBe(folder);
      expect(saved.path.startsWith(`${folder}${sep}`)).toBe(true);
      expect(await readdir(folder)).toEqual([saved.name]);
      expect((await stat(saved.path)).mode & 0o777).toBe(0o600);
    },
  );

  it('adds a suffix instead of replacing a different file, and reuses the same one', async () => {
    const store = new DownloadStore({ dataDir: await tempDir(), child: 'ania' });
    const a = await saveBody(store, Buffer.from('one'), 'plan.pdf', 'plik');
    const b = await saveBody(store, Buffer.from('two'), 'plan.pdf', 'plik');
    const c = await saveBody(store, Buffer.from('one'), 'plan.pdf', 'plik');
    expect([a.name, b.name, c.name]).toEqual(['plan.pdf', 'plan (2).pdf', 'plan.pdf']);
    expect(await readFile(a.path, 'utf8')).toBe('one');
    expect(await readFile(b.path, 'utf8')).toBe('two');
    expect((await readdir(store.dir)).sort()).toEqual(['plan (2).pdf', 'plan.pdf']);
  });

  it('remembers a saved file by key across instances', async () => {
    const dataDir = await tempDir();
    const saved = await saveBody(new DownloadStore({ dataDir, child: 'ania' }), Buffer.from('x'), 'a.pdf', 'plik', 'homework-1');
    const later = new DownloadStore({ dataDir, child: 'ania' });
    expect(await later.find('homework-1')).toEqual(saved);
    expect(await later.find('homework-2')).toBeUndefined();
  });
});

describe('dispositionName', () => {
  it.each([
    [`attachment; filename="plan.pdf"`, 'plan.pdf'],
    [`attachment; filename=plan.pdf`, 'plan.pdf'],
    [`attachment; filename="a \\"b\\".pdf"`, 'a "b".pdf'],
    [`attachment; filename="fallback.pdf"; filename*=UTF-8''%C5%BC%C3%B3%C5%82w.pdf`, 'żółw.pdf'],
    [`attachment; filename*=utf-8'pl'%C4%85.txt`, 'ą.txt'],
    [`attachment; filename*=iso-8859-2''%B1.txt`, 'ą.txt'],
    // Raw UTF-8 bytes in the header arrive as latin1 characters.
    [`attachment; filename="${Buffer.from('zażółć.pdf').toString('latin1')}"`, 'zażółć.pdf'],
    [`attachment; filename*=UTF-8''%E0%A4%A.pdf; filename="ok.pdf"`, 'ok.pdf'],
    ['inline', undefined],
    [undefined, undefined],
  ])('%j -> %j', (header, name) => {
    expect(dispositionName(header)).toBe(name);
  });
});
