// How a first-step answer is read (spec 4.6.7): the logged-out page means a dead session, a page that
// plainly says the file does not exist is an error, and pages are read in the charset they declare.
import { describe, expect, it } from 'vitest';
import { isDeadWebSession } from '../../../src/portal/attachments/answers.js';
import { pageText, type HttpResponse } from '../../../src/portal/http.js';

const PORTAL = { base_url: 'https://portal.example', auth_url: 'https://auth.example' };

function answer(status: number, body: Buffer | string, headers: Record<string, string> = {}, location?: string): HttpResponse {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  return { status, url: `${PORTAL.base_url}/homework/downloadFile/1`, headers, body: buf, location, text: () => buf.toString('utf8') };
}

/** Polish text in ISO-8859-2, as an old page might send it. */
function latin2(text: string): Buffer {
  const table: Record<string, number> = { ą: 0xb1, ę: 0xea, ł: 0xb3, ś: 0xb6, ż: 0xbf, ź: 0xbc, ó: 0xf3, ć: 0xe6, ń: 0xf1 };
  return Buffer.from([...text].map((c) => table[c] ?? c.charCodeAt(0)));
}

const HTML = { 'content-type': 'text/html; charset=UTF-8' };

describe('isDeadWebSession', () => {
  it.each([
    ['the logged-out page', answer(200, '<h2>Brak dostępu</h2><p>Zaloguj się</p>', HTML), true],
    ['a logged-out page that also says nie istnieje', answer(200, '<p>Brak dostępu: sesja nie istnieje. Zaloguj się.</p>', HTML), true],
    ['some other page without a redirect', answer(200, '<p>Coś poszło źle</p>', HTML), true],
    ['a 401', answer(401, ''), true],
    ['a redirect to the login entry', answer(302, '', {}, `${PORTAL.base_url}/loguj/portalRodzina`), true],
    ['a redirect to the auth host', answer(302, '', {}, `${PORTAL.auth_url}/OAuth/Authorization`), true],
    ['a page saying the file does not exist', answer(200, '<p>Plik nie istnieje.</p>', HTML), false],
    ['a page saying nie znaleziono', answer(200, '<h1>Nie znaleziono pliku</h1>', HTML), false],
    ['a page saying not found', answer(200, '<h1>File not found</h1>', HTML), false],
    ['a redirect to the sandbox', answer(302, '', {}, 'https://sandbox.example/index.php?action=CSTryToDownload&singleUseKey=k'), false],
    ['a 500', answer(500, ''), false],
    ['a file', answer(200, '%PDF', { 'content-type': 'application/pdf' }), false],
  ])('%s -> %s', (_, res, dead) => {
    expect(isDeadWebSession(res, PORTAL)).toBe(dead);
  });

  it('reads the logged-out page in the charset of its header', () => {
    const res = answer(200, latin2('<h2>Brak dostępu</h2><p>Plik nie istnieje</p>'), { 'content-type': 'text/html; charset=ISO-8859-2' });
    expect(pageText(res)).toContain('Brak dostępu');
    expect(isDeadWebSession(res, PORTAL)).toBe(true);
  });

  it('reads the charset of a <meta> tag when the header names none', () => {
    const res = answer(200, latin2('<meta charset="iso-8859-2"><p>Nie jesteś zalogowany; plik nie istnieje</p>'), { 'content-type': 'text/html' });
    expect(pageText(res)).toContain('Nie jesteś zalogowany');
    expect(isDeadWebSession(res, PORTAL)).toBe(true);
  });
});
