// The family portal's host (live-notes 21-25): the e-mail login form with its CSRF token, the password
// POST (a captcha page when the switch is on), `api/v3/Me` that proves the session, and the linked
// children with their bearer tokens (`api/v3/SynergiaAccounts`, `.../fresh/<login>`). A wrong password
// is sent back to the form, as a Laravel app does, and only Me's 401 says it.
import { setCookie } from './cookies.js';
import type { SimFamilyInit } from './family-state.js';
import { escapeHtml, html, json, page, redirect } from './reply.js';
import type { Call, HostHandler, Reply } from './types.js';
import type { World } from './world.js';

export const FAMILY_COOKIE = 'librus_portal_session';
export const FAMILY_LOGIN_PATH = '/konto-librus/login';
export const FAMILY_ACTION_PATH = '/konto-librus/login/action';
const FRESH_PREFIX = '/api/v3/SynergiaAccounts/fresh/';

export function familyHost(world: World): HostHandler {
  return {
    identify(call) {
      if (call.method === 'POST' && call.path === FAMILY_ACTION_PATH) return new URLSearchParams(call.body).get('email') ?? undefined;
      return world.families.session(call.cookies.get(FAMILY_COOKIE))?.email;
    },
    handle(call) {
      const route = `${call.method} ${call.path}`;
      if (route === `GET ${FAMILY_LOGIN_PATH}`) return loginForm(world, call);
      if (route === `POST ${FAMILY_ACTION_PATH}`) return passwordPost(world, call);
      if (route === 'GET /rodzina')
        return signedIn(world, call, (family) => html(200, page('Konto LIBRUS', `<h1>Twoje dzieci: ${family.logins.length}</h1>`)));
      if (route === 'GET /api/v3/Me')
        return api(world, call, (family) => json(200, { id: 9000, email: family.email, firstName: 'Rodzic', lastName: 'Demo' }));
      if (route === 'GET /api/v3/SynergiaAccounts') {
        return api(world, call, (family) =>
          json(200, { lastModification: Math.floor(world.now() / 1000), accounts: world.families.entries(family) }),
        );
      }
      if (call.method === 'GET' && call.path.startsWith(FRESH_PREFIX)) {
        const login = decodeURIComponent(call.path.slice(FRESH_PREFIX.length));
        return api(world, call, (family) => {
          const entry = world.families.fresh(family, login);
          return entry ? json(200, entry, { login }) : json(404, { message: 'Not found.' });
        });
      }
      return html(404, page('Nie znaleziono', '<h1>404</h1>'));
    },
  };
}

/** The form: a new session cookie unless one is live, and the token the POST must carry. */
function loginForm(world: World, call: Call): Reply {
  const families = world.families;
  const id = call.cookies.get(FAMILY_COOKIE);
  const live = families.session(id);
  const session = live && id !== undefined ? { id, csrf: live.csrf } : families.openSession();
  const cookies = live ? [] : [setCookie(FAMILY_COOKIE, session.id, { maxAge: 7200 })];
  return html(200, formPage(session.csrf, ''), { cookies });
}

function formPage(csrf: string, extra: string): string {
  return page(
    'Zaloguj się - Konto LIBRUS',
    `<meta name="csrf-token" content="${escapeHtml(csrf)}">\n` +
      `<form method="post" action="${FAMILY_ACTION_PATH}">\n<input type="hidden" name="_token" value="${escapeHtml(csrf)}">\n` +
      '<input name="email" type="email"> <input name="password" type="password">\n' +
      `${extra}<button type="submit">Zaloguj</button>\n</form>`,
  );
}

/** Step 2 of the road: a form POST of email, password and _token, with the form as Referer. */
function passwordPost(world: World, call: Call): Reply {
  const families = world.families;
  const { family_url } = world.urls();
  const id = call.cookies.get(FAMILY_COOKIE);
  const session = families.session(id);
  const form = new URLSearchParams(call.body);
  const email = form.get('email') ?? '';
  // Laravel's answer to a form whose token or session it does not know: 419, "Page Expired".
  if (!session || id === undefined || form.get('_token') !== session.csrf) return html(419, page('Page Expired', '<h1>419</h1>'));
  if (!String(call.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    return html(419, page('Page Expired', '<h1>419</h1>'));
  if (call.headers.referer !== `${family_url}${FAMILY_LOGIN_PATH}`) return html(403, page('Forbidden', '<h1>403</h1>'));
  if (families.captcha) {
    return html(200, formPage(session.csrf, '<p>Potwierdź, że nie jesteś robotem.</p>\n<div class="g-recaptcha" data-sitekey="6Lc-family"></div>\n'));
  }
  const family = families.checkPassword(email, form.get('password') ?? '');
  if (!family) return redirect(`${family_url}${FAMILY_LOGIN_PATH}`);
  const signed = families.signIn(id, family);
  return redirect(`${family_url}/rodzina`, { cookies: [setCookie(FAMILY_COOKIE, signed, { maxAge: 7200 })] });
}

function signedIn(world: World, call: Call, answer: (family: SimFamilyInit) => Reply): Reply {
  const family = signedFamily(world, call);
  return family ? answer(family) : redirect(`${world.urls().family_url}${FAMILY_LOGIN_PATH}`);
}

/** The portal's JSON API: 401 without a signed-in session. */
function api(world: World, call: Call, answer: (family: SimFamilyInit) => Reply): Reply {
  const family = signedFamily(world, call);
  return family ? answer(family) : json(401, { message: 'Unauthenticated.' });
}

function signedFamily(world: World, call: Call): SimFamilyInit | undefined {
  const email = world.families.session(call.cookies.get(FAMILY_COOKIE))?.email;
  return email === undefined ? undefined : world.families.family(email);
}
