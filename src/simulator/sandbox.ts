// The file hand-off host ({sandbox_url}, spec 4.6, 4.8): index.php with the single-use-key actions
// (CSTryToDownload, CSCheckKey, CSDownload), one-time GetFile links for school files, and message
// attachment links. Each key and link hands its file out once.
import { attachmentPage, isAttachmentPath } from './download-attachments.js';
import { fileReply } from './download-reply.js';
import { html, json, page } from './reply.js';
import type { Call, HostHandler, Reply } from './types.js';
import type { World } from './world.js';

export function sandboxHost(world: World): HostHandler {
  return {
    identify(call) {
      const key = actionParams(call).get('singleUseKey');
      if (key) return world.downloads.keys.get(key)?.login;
      const token = /^\/(?:GetFile|attachments)\/([^/]+)/.exec(call.path)?.[1];
      return token === undefined ? undefined : world.downloads.links.get(token)?.login;
    },
    handle(call) {
      if (call.path === '/index.php') return indexPhp(world, call);
      if (call.path.startsWith('/GetFile/')) return getFile(world, call);
      if (isAttachmentPath(call.path)) return attachmentPage(world, call);
      return json(404, { status: 'error', message: 'Not found' });
    },
  };
}

/** The action and key come in the query (GET) or in the form body (POST). */
function actionParams(call: Call): URLSearchParams {
  if (call.method === 'POST') {
    const form = new URLSearchParams(call.body);
    if (form.has('action')) return form;
  }
  return call.query;
}

function indexPhp(world: World, call: Call): Reply {
  const params = actionParams(call);
  const key = world.downloads.keys.get(params.get('singleUseKey') ?? '');
  switch (params.get('action')) {
    case 'CSTryToDownload': {
      if (!key) return html(200, page('Pobieranie', '<p>Nieprawidłowy klucz pobierania.</p>'));
      key.opened = true;
      return html(200, page('Pobieranie', '<p>Trwa przygotowywanie pliku do pobrania. Proszę czekać…</p>'), { login: key.login });
    }
    case 'CSCheckKey': {
      if (call.method !== 'POST') return html(405, page('Błąd', '<p>405</p>'));
      if (key?.outcome === 'not_json') return html(200, page('Błąd', '<p>Wystąpił błąd. Spróbuj ponownie później.</p>'), { login: key.login });
      if (!key || key.outcome === 'download_failed' || !key.opened || key.served) return json(200, { status: 'download_failed' });
      key.checks++;
      return json(200, { status: key.checks <= key.wait ? 'not_downloaded_yet' : 'ready' }, { login: key.login });
    }
    case 'CSDownload': {
      const ready = key && key.outcome === 'ok' && key.opened && key.checks > key.wait && !key.served;
      if (!key || !ready) return html(200, page('Pobieranie', '<p>Plik nie istnieje lub link do pobrania wygasł.</p>'));
      key.served = true;
      world.downloads.recordServed(key);
      return fileReply(key.file, key.login);
    }
    default:
      return html(200, page('Sandbox', '<p>Nieznana akcja.</p>'));
  }
}

function getFile(world: World, call: Call): Reply {
  const token = /^\/GetFile\/([^/]+)/.exec(call.path)?.[1] ?? '';
  const link = world.downloads.links.get(token);
  if (!link || link.kind === 'attachment' || link.served) {
    return html(404, page('Nie znaleziono', '<p>Plik nie istnieje lub link do pobrania wygasł.</p>'));
  }
  link.served = true;
  world.downloads.recordServed(link);
  return fileReply(link.file, link.login);
}
