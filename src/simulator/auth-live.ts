// The login as the live portal ran it in 2026 (live-notes 16-19), as two switches over the spec's flow:
// `login-2026` (the page behind a redirect, x-baner required, {status: ok} without goTo, then
// PerformLogin) and `password-leak` (a requiredActions page that a "remind me later" POST skips).
// Written from the notes alone: nothing here is shared with the client's login.
import { html, json, page, redirect } from './reply.js';
import type { AuthSession } from './sessions.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

export const LIVE_LOGIN_SWITCHES = ['login-2026', 'password-leak'] as const;
export type LiveLoginSwitch = (typeof LIVE_LOGIN_SWITCHES)[number];

const CLIENT = 'client_id=46';
export const PERFORM_LOGIN_PATH = '/OAuth/Authorization/PerformLogin';
export const GRANT_PATH = '/OAuth/Authorization/Grant';

/** What the portal answers a POST it does not trust (its front script's words, not about the password). */
export const GENERIC_ERROR = 'Wystąpił błąd. Odśwież stronę i spróbuj ponownie.';

/**
 * The page a leaked password meets: the portal's own app reads `requiredActions` from it and offers
 * "remind me later". The form is what a browser would post.
 */
function requiredActionsPage(action: string): string {
  return page(
    'Zmień hasło',
    `<h1>Twoje hasło mogło wyciec</h1>\n<p>Zalecamy zmianę hasła.</p>\n` +
      `<script>window.__STATE__ = {"requiredActions":["leakedPasswordChangeAdvised"]};</script>\n` +
      `<form method="post" action="${action}"><input type="hidden" name="action" value="requiredActions">` +
      `<button name="skip" value="true">Przypomnij mi później</button></form>`,
  );
}

/**
 * x-baner as the login page's script builds it: two numbers' strings, each character moved up by 20
 * code points, joined by "_". Undone here character by character; the first must read as
 * Math.random()'s string, the second as Date.now()'s.
 */
export function validBaner(header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const parts = header.split('_');
  if (parts.length !== 2) return false;
  const [random, stamp] = parts.map((part) => [...part].map((ch) => String.fromCharCode((ch.codePointAt(0) ?? 0) - 20)).join(''));
  return /^0(\.\d+)?(e-\d+)?$/.test(random ?? '') && /^1\d{12}$/.test(stamp ?? '');
}

/**
 * Under login-2026 the authorization URL with `state` only sets the session and sends the browser on
 * to the login page proper, `?client_id=46`.
 */
export function loginPageRedirect(world: World, cookies: string[]): Reply {
  return redirect(`${world.urls().auth_url}/OAuth/Authorization?${CLIENT}`, { cookies });
}

/** The login page proper, for a browser that came through the redirect (it holds the session cookie). */
export function loginPageProper(session: AuthSession | undefined, loginPage: string): Reply {
  if (!session) return json(400, { error: 'invalid_request', error_description: 'Unknown client or response type' });
  return html(200, loginPage);
}

/** Step 3's answer to a good password, in the form the switches ask for. */
export function passwordAccepted(world: World, login: string, twoFaPath: string): Reply {
  if (world.loginSwitch('login-2026')) return json(200, { status: 'ok' }, { login });
  return json(200, { status: 'ok', goTo: twoFaPath }, { login });
}

/** x-baner refused: the live portal's answer is unknown (live-notes 17), so a generic error. */
export function banerRefused(login: string): Reply {
  return json(200, { status: 'error', errors: [GENERIC_ERROR] }, { login });
}

/**
 * A hop after the password (2FA or PerformLogin): with password-leak, the requiredActions page at this
 * very address until it is skipped; else on to the grant.
 */
export function afterPassword(world: World, call: Call, session: AuthSession, login: string): Reply {
  if (world.loginSwitch('password-leak') && !session.actionsSkipped) {
    const here = `${call.path}${call.rawQuery === '' ? '' : `?${call.rawQuery}`}`;
    return html(200, requiredActionsPage(here), { login });
  }
  return redirect(`${GRANT_PATH}?${CLIENT}`, { login });
}

/** "Remind me later": a POST of action=requiredActions&skip=true to the page's own address. */
export function skipRequiredActions(call: Call, session: AuthSession | undefined): Reply {
  const form = new URLSearchParams(call.body);
  if (!session?.login || form.get('action') !== 'requiredActions' || form.get('skip') !== 'true') {
    return json(400, { status: 'error', errors: [GENERIC_ERROR] });
  }
  session.actionsSkipped = true;
  return json(200, { status: 'ok', goTo: `${GRANT_PATH}?${CLIENT}` }, { login: session.login });
}

/** The grant refuses to hand out a code while the advised action is neither done nor skipped. */
export function grantBlocked(world: World, session: AuthSession): boolean {
  return world.loginSwitch('password-leak') && !session.actionsSkipped;
}
