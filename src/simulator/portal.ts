// The portal host: the login entry (step 1) and the end of the login chain, the session refresh, the
// web pages a client reads (informacja, wiadomosci3), the data gateway, and the family road's token
// login into the register web session. Every answer to a live session re-sends its oauth_token with
// Max-Age=600.
import { randomBytes } from 'node:crypto';
import { bearerLogin } from './api-host.js';
import { setCookie } from './cookies.js';
import { downloadPage, isDownloadPath } from './download-routes.js';
import { handleGateway, isGatewayPath } from './gateway.js';
import { isKindergartenPath, kindergartenService } from './kindergarten.js';
import { messagingBootstrap } from './messaging-bootstrap.js';
import { escapeHtml, html, page, redirect } from './reply.js';
import { TOKEN_MAX_AGE } from './sessions.js';
import type { PortalSession } from './sessions.js';
import type { Call, HostHandler, Reply } from './types.js';
import type { World } from './world.js';

const LOGIN_ENTRY = '/loguj/portalRodzina';

export function portalHost(world: World): HostHandler {
  return {
    identify(call) {
      const sessions = world.sessions;
      const login = (sessions.findByToken(call.cookies.get('oauth_token')) ?? sessions.findByWebSid(call.cookies.get('DZIENNIKSID')))?.login;
      return login ?? (isKindergartenPath(call.host, call.path) ? bearerLogin(world, call) : undefined);
    },
    handle(call) {
      if (isGatewayPath(call.path)) return handleGateway(world, call);
      if (isKindergartenPath(call.host, call.path)) return kindergartenCall(world, call);
      const reply = route(world, call);
      // The token cookie follows a live session on every page (spec 5.3).
      const live = world.sessions.liveByToken(call.cookies.get('oauth_token')) ?? world.sessions.liveByWebSid(call.cookies.get('DZIENNIKSID'));
      if (live && !reply.cookies?.some((c) => c.startsWith('oauth_token='))) {
        reply.cookies = [...(reply.cookies ?? []), tokenCookie(live)];
      }
      return reply;
    },
  };
}

/** The kindergarten service on the register's gateway path: by a child's bearer token when one is sent, else by the cookie session. */
function kindergartenCall(world: World, call: Call): Reply {
  if (call.headers.authorization !== undefined) {
    const bearer = bearerLogin(world, call);
    return kindergartenService(world, call, bearer === undefined ? undefined : world.account(bearer), 'bearer');
  }
  const session = world.sessions.liveByToken(call.cookies.get('oauth_token'));
  return kindergartenService(world, call, session && world.account(session.login), 'cookie');
}

function tokenCookie(session: PortalSession): string {
  return setCookie('oauth_token', session.token, { maxAge: TOKEN_MAX_AGE });
}

function route(world: World, call: Call): Reply {
  if (call.method !== 'GET') return html(405, page('Błąd', '<h1>405</h1>'));
  if (isDownloadPath(call.path)) return downloadPage(world, call);
  const oneTime = TOKEN_LOGIN.exec(call.path);
  if (oneTime) return tokenLogin(world, decodeURIComponent(oneTime[1] ?? ''));
  switch (call.path) {
    case LOGIN_ENTRY:
      return loginEntry(world);
    case `${LOGIN_ENTRY}/autoryzacja`:
      return authorized(world, call);
    case '/refreshToken':
      return refreshToken(world, call);
    case '/uczen/index':
      return webPage(world, call, (s) => page('Dziennik', `<h1>Witaj, ${escapeHtml(childName(world, s))}</h1>`));
    case '/informacja':
      return webPage(world, call, (s) => informationPage(world, s));
    case '/wiadomosci3':
      return messagingBootstrap(world, call);
    default:
      return html(404, page('Nie znaleziono', '<h1>Strona nie istnieje</h1>'));
  }
}

function loginEntry(world: World): Reply {
  const state = randomBytes(16).toString('hex');
  const { auth_url } = world.urls();
  return redirect(`${auth_url}/OAuth/Authorization?client_id=46&response_type=code&scope=mydata&state=${state}`);
}

/** The last hop of the login chain: the code from the authorization host opens the portal session. */
function authorized(world: World, call: Call): Reply {
  const grant = world.sessions.redeemCode(call.query.get('code'));
  if (!grant || grant.state !== (call.query.get('state') ?? '')) {
    return html(400, page('Błąd logowania', '<p>Nieprawidłowy kod autoryzacji. Zaloguj się ponownie.</p>'));
  }
  const session = world.sessions.open(grant.login);
  return redirect('/uczen/index', {
    login: session.login,
    cookies: [setCookie('DZIENNIKSID', session.webSid), setCookie('SDZIENNIKSID', session.secureSid), tokenCookie(session)],
  });
}

/** The family road's way into the register web session: a one-time token of 2.0/AutoLoginToken (live-notes 26). */
const TOKEN_LOGIN = /^\/loguj\/token\/([^/]+)\/przenies\/.+$/;

function tokenLogin(world: World, token: string): Reply {
  const login = world.families.redeemOneTime(token);
  if (login === undefined) return redirect(`${world.urls().base_url}${LOGIN_ENTRY}`);
  const session = world.sessions.open(login);
  return redirect('/uczen/index', {
    login,
    cookies: [setCookie('DZIENNIKSID', session.webSid), setCookie('SDZIENNIKSID', session.secureSid), tokenCookie(session)],
  });
}

/** Live: 200, empty body, a new oauth_token. Dead: 401 with an empty body (the spec does not show it). */
function refreshToken(world: World, call: Call): Reply {
  const session = world.sessions.liveByToken(call.cookies.get('oauth_token'));
  if (!session) return { status: 401, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '' };
  if (world.refreshWithoutToken()) {
    return { status: 200, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '', cookies: [], login: session.login };
  }
  world.sessions.refresh(session);
  return { status: 200, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '', cookies: [tokenCookie(session)], login: session.login };
}

/** Web pages open with DZIENNIKSID; a dead session is sent to the login entry. */
function webPage(world: World, call: Call, render: (s: PortalSession) => string): Reply {
  const session = world.sessions.liveByWebSid(call.cookies.get('DZIENNIKSID'));
  if (!session) return redirect(`${world.urls().base_url}${LOGIN_ENTRY}`);
  return html(200, render(session), { login: session.login });
}

function childName(world: World, session: PortalSession): string {
  const child = world.account(session.login)?.data.account.child;
  return child ? `${child.firstName} ${child.lastName}` : '';
}

function informationPage(world: World, session: PortalSession): string {
  const account = world.account(session.login);
  if (!account) return page('Informacje', '');
  const a = account.data.account;
  const klass = account.school.classes.find((c) => c.Id === a.classId);
  const rows: [string, string][] = [
    ['Imię i nazwisko', `${a.child.firstName} ${a.child.lastName}`],
    ['Klasa', klass ? `${klass.Number} ${klass.Symbol}` : ''],
    ['Nr w dzienniku', String(a.registerNumber)],
    ['Szkoła', String(account.school.school.Name ?? '')],
  ];
  const table = rows.map(([th, td]) => `  <tr><th>${escapeHtml(th)}</th><td>${escapeHtml(td)}</td></tr>`).join('\n');
  return page('Informacje o uczniu', `<h2>Informacje o uczniu</h2>\n<table class="decorated">\n${table}\n</table>`);
}
