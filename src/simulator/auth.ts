// The authorization host, also the family road's API host (api-host.ts): the login page (step 2), the password form post (step 3), the redirect chain
// that ends on the portal (step 4, first hops here) and the dead password grant. The checks follow
// what a browser sends, so a client that does not look like one is refused as it would be for real.
import { randomBytes } from 'node:crypto';
import { setCookie } from './cookies.js';
import { MESSAGES_SSO, messagesSso } from './messaging-bootstrap.js';
import {
  afterPassword,
  banerRefused,
  grantBlocked,
  GRANT_PATH,
  loginPageProper,
  loginPageRedirect,
  passwordAccepted,
  PERFORM_LOGIN_PATH,
  skipRequiredActions,
  validBaner,
} from './auth-live.js';
import { apiFault, bearerLogin, handleApi, isApiPath } from './api-host.js';
import { isKindergartenPath, kindergartenService } from './kindergarten.js';
import { html, json, page, redirect } from './reply.js';
import type { AuthSession } from './sessions.js';
import type { Call, HostHandler, Reply } from './types.js';
import type { World } from './world.js';

export const AUTH_COOKIE = 'AUTHSESSID';
const DEVICE_MAX_AGE = 31_536_000;
const CLIENT_ID = '46';
export const TWO_FA_PATH = `/OAuth/Authorization/2FA?client_id=${CLIENT_ID}`;

const LOGIN_PAGE = page(
  'Logowanie',
  '<form id="loginForm" method="post" action="/OAuth/Authorization?client_id=46">\n' +
    '<label>Login <input name="login" autocomplete="username"></label>\n' +
    '<label>Hasło <input name="pass" type="password" autocomplete="current-password"></label>\n' +
    '<input type="hidden" name="action" value="login">\n<button type="submit">Zaloguj</button>\n</form>',
);

/** The marker a browser would render; the spec tells a client to look for it (5.2 rule 2). */
const CAPTCHA_WIDGET = '<div class="g-recaptcha" data-sitekey="6Lc-simulated-site-key"></div>';

export function authHost(world: World): HostHandler {
  return {
    identify(call) {
      if (call.method === 'POST' && call.path === '/OAuth/Authorization') {
        const login = new URLSearchParams(call.body).get('login');
        if (login) return login;
      }
      if (isApiPath(call.path) || isKindergartenPath(call.host, call.path)) return bearerLogin(world, call);
      return world.sessions.authSession(call.cookies.get(AUTH_COOKIE))?.login;
    },
    fault: (call, status) => (isApiPath(call.path) ? apiFault(status) : undefined),
    handle(call) {
      if (isApiPath(call.path)) return handleApi(world, call);
      if (isKindergartenPath(call.host, call.path)) {
        const bearer = bearerLogin(world, call);
        return kindergartenService(world, call, bearer === undefined ? undefined : world.account(bearer), 'bearer');
      }
      const session = world.sessions.authSession(call.cookies.get(AUTH_COOKIE));
      const route = `${call.method} ${call.path}`;
      if (route === 'GET /OAuth/Authorization') return loginPage(world, call);
      if (route === 'POST /OAuth/Authorization') return passwordStep(world, call, session);
      if (route === 'GET /OAuth/Authorization/2FA') return firstHop(world, call, session);
      if (route === `GET ${PERFORM_LOGIN_PATH}`) return performLogin(world, call, session);
      if (route === 'POST /OAuth/Authorization/2FA' || route === `POST ${PERFORM_LOGIN_PATH}`) return skipRequiredActions(call, session);
      if (route === 'GET /OAuth/Authorization/2FA/loop') return loopHop(call);
      if (route === `GET ${GRANT_PATH}`) return grantHop(world, session);
      if (route === `GET ${MESSAGES_SSO}`) return messagesSso(world, session?.login);
      if (route === 'POST /OAuth/Token') return json(400, { error: 'unsupported_grant_type' });
      return html(404, page('Nie znaleziono', '<h1>404</h1>'));
    },
  };
}

function loginPage(world: World, call: Call): Reply {
  if (world.loginSwitch('login-2026') && call.query.get('client_id') === CLIENT_ID && !call.query.has('response_type')) {
    return loginPageProper(world.sessions.authSession(call.cookies.get(AUTH_COOKIE)), LOGIN_PAGE);
  }
  if (call.query.get('client_id') !== CLIENT_ID || call.query.get('response_type') !== 'code') {
    return json(400, { error: 'invalid_request', error_description: 'Unknown client or response type' });
  }
  const session = world.sessions.createAuthSession(call.query.get('state') ?? '');
  const cookies = [setCookie(AUTH_COOKIE, session.id)];
  if (!call.cookies.has('DeviceCookie')) {
    cookies.push(setCookie('DeviceCookie', randomBytes(24).toString('hex'), { path: '/OAuth', maxAge: DEVICE_MAX_AGE }));
  }
  if (world.loginSwitch('login-2026')) return loginPageRedirect(world, cookies);
  return html(200, LOGIN_PAGE, { cookies });
}

function loginError(status: number, code: string, message: string, login?: string): Reply {
  return json(status, { status: 'error', errors: [{ code, message }] }, login === undefined ? {} : { login });
}

/** Step 3. Refusals for missing browser headers are plain pages, as a front firewall would send. */
function passwordStep(world: World, call: Call, session: AuthSession | undefined): Reply {
  const { auth_url } = world.urls();
  if (call.headers['x-requested-with'] !== 'XMLHttpRequest') return html(400, page('Bad Request', '<h1>400 Bad Request</h1>'));
  const referer = call.headers.referer ?? '';
  const agent = call.headers['user-agent'] ?? '';
  if (call.headers.origin !== auth_url || !referer.startsWith(`${auth_url}/`) || !agent.includes('Mozilla/5.0')) {
    return html(403, page('Forbidden', '<h1>403 Forbidden</h1>'));
  }
  if (call.query.get('client_id') !== CLIENT_ID) return loginError(400, 'invalid_client', 'Nieznany klient.');
  if (!session) return loginError(400, 'session_expired', 'Sesja wygasła. Odśwież stronę i spróbuj ponownie.');
  const form = new URLSearchParams(call.body);
  const login = form.get('login') ?? '';
  if (form.get('action') !== 'login' || !login) return loginError(400, 'invalid_request', 'Podaj login i hasło.');
  if (world.loginSwitch('login-2026') && !validBaner(call.headers['x-baner'])) return banerRefused(login);
  if (world.captcha(login) === 'login') {
    return json(
      200,
      {
        status: 'error',
        errors: [{ code: 'captcha_required', message: 'Potwierdź, że nie jesteś robotem.' }],
        captcha: CAPTCHA_WIDGET,
      },
      { login },
    );
  }
  const refusal = world.loginRefusal(login);
  if (refusal) {
    return json(200, { status: 'error', errors: [refusal.as === 'string' ? refusal.message : { message: refusal.message }] }, { login });
  }
  const account = world.account(login);
  if (!account || account.password !== form.get('pass')) {
    return loginError(401, 'invalid_credentials', 'Nieprawidłowy login i/lub hasło.', login);
  }
  session.login = login;
  session.actionsSkipped = false;
  world.loginSucceeded(login);
  return passwordAccepted(world, login, TWO_FA_PATH);
}

/** A relative Location on purpose: the client must resolve each hop against the current URL. */
function firstHop(world: World, call: Call, session: AuthSession | undefined): Reply {
  if (!session?.login) return redirect(`/OAuth/Authorization?client_id=${CLIENT_ID}&response_type=code&scope=mydata`);
  if (world.redirectLoop()) return redirect(`/OAuth/Authorization/2FA/loop?client_id=${CLIENT_ID}&n=1`, { login: session.login });
  return afterPassword(world, call, session, session.login);
}

/** Where a browser goes after {status: ok} without goTo (live-notes 18). */
function performLogin(world: World, call: Call, session: AuthSession | undefined): Reply {
  if (!session?.login) return redirect(`/OAuth/Authorization?client_id=${CLIENT_ID}&response_type=code&scope=mydata`);
  return afterPassword(world, call, session, session.login);
}

function loopHop(call: Call): Reply {
  const n = Number(call.query.get('n') ?? '0') + 1;
  return redirect(`/OAuth/Authorization/2FA/loop?client_id=${CLIENT_ID}&n=${n}`);
}

function grantHop(world: World, session: AuthSession | undefined): Reply {
  if (!session?.login) return redirect(`/OAuth/Authorization?client_id=${CLIENT_ID}&response_type=code&scope=mydata`);
  const login = session.login;
  if (grantBlocked(world, session)) return html(403, page('Brak dostępu', '<p>Najpierw zmień hasło.</p>'), { login });
  if (world.captcha(login) === 'redirect') {
    return html(200, page('Weryfikacja', `<p>Potwierdź, że nie jesteś robotem.</p>\n${CAPTCHA_WIDGET}`), { login });
  }
  const code = world.sessions.issueCode(login, session.state);
  const state = encodeURIComponent(session.state);
  return redirect(`${world.urls().base_url}/loguj/portalRodzina/autoryzacja?code=${code}&state=${state}`, { login });
}
