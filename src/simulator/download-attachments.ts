// Message attachments (spec 4.8). The messaging host answers GET /api/attachments/<attachment id>/
// messages/<message id> with attachmentLinkReply() once its own session check passed; the link it
// hands out lives on the sandbox here: an HTML waiting page, and <link>/get that needs the link as
// Referer and answers HTML a few times before the file.
import { fileReply } from './download-reply.js';
import { html, json, page } from './reply.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

const LINK = /^\/attachments\/([^/]+)(\/get)?$/;

/** GET /api/attachments/<attachment id>/messages/<message id> for a messaging session of login. */
export function attachmentLinkReply(world: World, login: string, attachmentId: string, name?: string): Reply {
  const downloadLink = world.downloads.attachmentLink(login, attachmentId, name);
  return json(200, { data: { status: 'ok', downloadLink } }, { login });
}

export function isAttachmentPath(path: string): boolean {
  return LINK.test(path);
}

export function attachmentPage(world: World, call: Call): Reply {
  const [, token = '', get] = LINK.exec(call.path) ?? [];
  const link = world.downloads.links.get(token);
  if (!link || link.kind !== 'attachment' || call.method !== 'GET') {
    return html(404, page('Nie znaleziono', '<p>Plik nie istnieje lub link do pobrania wygasł.</p>'));
  }
  const waiting = html(200, page('Pobieranie załącznika', '<p>Trwa przygotowywanie załącznika. Proszę czekać…</p>'), { login: link.login });
  if (get === undefined) return waiting;
  const self = `${world.urls().sandbox_url}/attachments/${token}`;
  if (call.headers.referer !== self) return html(403, page('Brak dostępu', '<p>Brak dostępu.</p>'), { login: link.login });
  if (link.waitsLeft > 0) {
    link.waitsLeft--;
    return waiting;
  }
  if (!link.served) world.downloads.recordServed(link);
  link.served = true;
  return fileReply(link.file, link.login);
}
