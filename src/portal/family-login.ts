// The family road's way in (live-notes 21-25): the family portal's e-mail login with its form token,
// proved by `api/v3/Me`, then the linked children with a bearer token each and a token's renewal. Never
// a false "wrong password": only Me's 401 after the login says the e-mail or the password is wrong, and
// an answer the road does not know is a changed login (LoginChangedError).
import * as z from 'zod';
import {
  atLoginStep,
  CaptchaRequiredError,
  LoginChangedError,
  unknownLoginPage,
  UnexpectedResponseError,
  WrongCredentialsError,
  type LoginStep,
} from './errors.js';
import { pathOf, readJson, unlessDown, type HttpResponse } from './http.js';
import type { PortalSession } from './session.js';
import { navigationHeaders, type LoginInput, type LoginOutcome } from './login.js';
import type { PortalUrls } from '../config/schema.js';

export const FAMILY_FORM_PATH = '/konto-librus/login';
const FAMILY_ACTION_PATH = '/konto-librus/login/action';

/** The markers of a captcha page on the family portal (live-notes 21). */
const FAMILY_CAPTCHA = /captcha|robotem/i;
/** The form's hidden CSRF input, or the page's meta tag (older forms). */
const FORM_TOKEN = /name=["']_token["'][^>]*value=["']([^"']+)["']|name=["']csrf-token["'][^>]*content=["']([^"']+)["']/;

/** As a register login's (`account`: a label for logs and errors, never the e-mail), with the e-mail for the login. */
export interface FamilyLoginInput extends Pick<LoginInput, 'http' | 'account' | 'password'> {
  urls: Pick<PortalUrls, 'family_url'>;
  email: string;
}

/** Logs the family portal in (form, POST, Me); resolves once Me accepts the session. */
export async function familyLogin(input: FamilyLoginInput): Promise<LoginOutcome> {
  let step: LoginStep = 'login page';
  const { http, urls, account } = input;
  const changed = (message: string, res: HttpResponse): LoginChangedError =>
    new LoginChangedError(step, message, { account, url: res.url, status: res.status });
  try {
    const formUrl = `${urls.family_url}${FAMILY_FORM_PATH}`;
    const form = checked(await http.send({ url: formUrl, headers: navigationHeaders('none') }), account);
    if (form.status !== 200) throw changed(`${pathOf(form.url)} answered ${form.status}`, form);
    const page = form.text();
    if (FAMILY_CAPTCHA.test(page)) throw new CaptchaRequiredError('the family portal asks for a captcha at login', { account, url: form.url });
    const found = FORM_TOKEN.exec(page);
    const token = found?.[1] ?? found?.[2];
    // A page without the form (a maintenance page with status 200) is the portal down until it lasts.
    if (token === undefined) throw unknownLoginPage(changed('the login form has no _token', form));

    step = 'password';
    const body = new URLSearchParams({ email: input.email, password: input.password, _token: token }).toString();
    const answer = checked(
      await http.send({
        method: 'POST',
        url: `${urls.family_url}${FAMILY_ACTION_PATH}`,
        body,
        headers: {
          ...navigationHeaders('same-origin', formUrl),
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(formUrl).origin,
        },
      }),
      account,
    );
    if (FAMILY_CAPTCHA.test(answer.text()))
      throw new CaptchaRequiredError('the family portal asks for a captcha at login', { account, url: answer.url });
    // A redirect (to the portal, or back to the form for a wrong password): Me tells which.
    if (answer.status >= 400 || (answer.status >= 300 && answer.location === undefined))
      throw changed(`the login form's POST answered ${answer.status}`, answer);

    step = 'session check';
    const me = checked(await http.send({ url: `${urls.family_url}/api/v3/Me`, headers: { accept: 'application/json' } }), account);
    if (me.status === 401) {
      throw new WrongCredentialsError(
        'the family portal did not accept the e-mail and password (the family portal’s own e-mail and password, not a register login)',
        { account, url: me.url },
      );
    }
    const json = me.status === 200 ? readJson(me) : undefined;
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw changed(`api/v3/Me answered ${me.status} without a JSON object`, me);
    return {};
  } catch (error) {
    throw atLoginStep(error, step);
  }
}

/** One linked child as SynergiaAccounts lists it (live-notes 23); the token is empty while the link needs action. */
const linkedChild = z.object({
  login: z.string().min(1),
  studentName: z.string().catch(''),
  state: z.string().catch('active'),
  accessToken: z
    .string()
    .nullish()
    .transform((t) => t ?? ''),
});
export type LinkedChild = z.output<typeof linkedChild>;

const synergiaAccounts = z.object({ accounts: z.array(linkedChild) });
/** fresh/<login> answers the child's entry; some forms wrap it in `account`. */
const freshEntry = z.union([linkedChild, z.object({ account: linkedChild }).transform((a) => a.account)]);

/**
 * The children linked to the family account, inside its portal session: a dead session (401) logs in
 * once and asks again (PortalSession.request).
 */
export async function linkedChildren(session: PortalSession, urls: Pick<PortalUrls, 'family_url'>, account: string): Promise<LinkedChild[]> {
  return (await portalApi(session, `${urls.family_url}/api/v3/SynergiaAccounts`, account, 'SynergiaAccounts', synergiaAccounts)).accounts;
}

/** A new bearer token for one child (live-notes 25), inside the family account's portal session. */
export function freshChild(session: PortalSession, urls: Pick<PortalUrls, 'family_url'>, account: string, login: string): Promise<LinkedChild> {
  const url = `${urls.family_url}/api/v3/SynergiaAccounts/fresh/${encodeURIComponent(login)}`;
  return portalApi(session, url, account, 'SynergiaAccounts/fresh', freshEntry);
}

/** An api/v3 `resource`'s answer at `url`, as `schema` reads it. */
async function portalApi<T extends z.ZodType>(session: PortalSession, url: string, account: string, resource: string, schema: T) {
  const res = checked(
    await session.request(
      () => session.http.send({ url, headers: { accept: 'application/json' } }),
      (r) => r.status === 401,
    ),
    account,
  );
  if (res.status !== 200) throw new UnexpectedResponseError(res.status, `${pathOf(url)} answered ${res.status}`, { account });
  const parsed = schema.safeParse(readJson(res));
  if (!parsed.success) throw new UnexpectedResponseError(res.status, `api/v3/${resource}: unexpected shape`, { account, resource });
  return parsed.data;
}

/** A 5xx or 429 is the service being down, never a wrong password (live-notes 3). */
function checked(res: HttpResponse, account: string): HttpResponse {
  return unlessDown(res, 'family portal', account);
}
