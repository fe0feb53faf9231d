// The portal host's download pages (spec 4.2, 4.6): /homework/downloadFile/<id> redirects to a sandbox
// single-use key, /pliki_szkoly/pobierz/<id> to a one-time GetFile link. They open with DZIENNIKSID;
// without a live web session they answer 200 with the logged-out access-denied page.
import type { SimAccount } from './account.js';
import type { FileKind } from './download-state.js';
import { html, page, redirect } from './reply.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

const HOMEWORK = /^\/homework\/downloadFile\/([^/]+)$/;
const SCHOOL = /^\/pliki_szkoly\/pobierz\/([^/]+)$/;

export function isDownloadPath(path: string): boolean {
  return HOMEWORK.test(path) || SCHOOL.test(path);
}

export function downloadPage(world: World, call: Call): Reply {
  const homework = HOMEWORK.exec(call.path)?.[1];
  const kind: FileKind = homework === undefined ? 'school' : 'homework';
  const id = decodeURIComponent(homework ?? SCHOOL.exec(call.path)?.[1] ?? '');
  const session = world.sessions.liveByWebSid(call.cookies.get('DZIENNIKSID'));
  if (!session || !world.downloads.webSessionAlive(session)) return loggedOutPage();
  const account = world.account(session.login);
  const name = account && (kind === 'homework' ? homeworkFileName(account, id) : schoolFileName(account, id));
  if (name === undefined)
    return html(200, page('Pobieranie pliku', '<h2>Błąd</h2>\n<p>Plik nie istnieje lub został usunięty.</p>'), { login: session.login });
  const redirectTo = world.downloads.redirectTarget;
  if (redirectTo !== undefined) return redirect(redirectTo, { login: session.login });
  const file = world.downloads.file(kind, id, name);
  const target =
    kind === 'homework' || world.downloads.schoolFilesByKey
      ? world.downloads.issueKey(session.login, kind, id, file)
      : world.downloads.issueGetFile(session.login, kind, id, file);
  return redirect(target, { login: session.login });
}

/** The page the portal shows a browser whose web session is gone (200, no redirect). */
function loggedOutPage(): Reply {
  return html(
    200,
    page(
      'Brak dostępu',
      '<div class="container-error">\n<h2>Brak dostępu</h2>\n' +
        '<p>Nie jesteś zalogowany lub Twoja sesja wygasła. <a href="/loguj/portalRodzina">Zaloguj się</a> ponownie.</p>\n</div>',
    ),
  );
}

function homeworkFileName(account: SimAccount, id: string): string | undefined {
  const body = account.resources.get('HomeWorkAssignments') as { HomeWorkAssignments?: { HomeworkAssigmentFiles?: unknown }[] } | undefined;
  for (const homework of body?.HomeWorkAssignments ?? []) {
    const files = Array.isArray(homework.HomeworkAssigmentFiles) ? (homework.HomeworkAssigmentFiles as { Id?: unknown; Name?: unknown }[]) : [];
    const file = files.find((f) => String(f.Id) === id);
    if (file) return typeof file.Name === 'string' ? file.Name : `plik-${id}`;
  }
  return undefined;
}

function schoolFileName(account: SimAccount, id: string): string | undefined {
  const body = account.resources.get('SchoolFiles') as { Data?: { id?: unknown; displayName?: unknown }[] } | undefined;
  const file = body?.Data?.find((f) => String(f.id) === id);
  if (!file) return undefined;
  return typeof file.displayName === 'string' ? file.displayName : `plik-${id}`;
}
