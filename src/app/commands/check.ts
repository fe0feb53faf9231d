// `check`: logs every account in with its password and says, in plain words, who the child is, which
// optional modules answer, and what to do when something fails; then the web server's addresses, with
// its access token only when asked (--show-token), and whether the broker takes the config's user where
// the bridge publishes and listens (check-broker.ts). Exit 0 only if every account and the broker work. It speaks the
// config's `language`; the --trace file stays English (it is read in bug reports).
import { CookieJar } from 'tough-cookie';
import { PortalAccess } from '../../engine/resources/portal-access.js';
import { writeFile } from 'node:fs/promises';
import { loginStepOf, portalMessageOf, problemReason, UnexpectedResponseError, type ProblemReason } from '../../portal/errors.js';
import { passwordChangeAdvice, portalSays } from '../../i18n/problem-advice.js';
import { CHECK_TEXT } from '../../i18n/check-text.js';
import { checkBroker } from './check-broker.js';
import { errorText } from '../../util/text.js';
import { LoginTrace } from '../../portal/trace.js';
import { VERSION } from '../../util/version.js';
import { SessionStore, type PersistedSession } from '../../portal/session-store.js';
import { childSlug, saveIdentity, type Identity } from '../../engine/identity.js';
import { fetchIdentity } from '../../engine/resources/identity.js';
import { FEATURES } from '../../features/index.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { KINDERGARTEN_SEARCH } from '../../engine/resources/kindergarten.js';
import { UNITS } from '../../engine/resources/grades.js';
import type { Portal, Resource } from '../../engine/resource.js';
import { childUnit } from '../../portal/schemas/identity.js';
import { systemClock, type Clock } from '../../util/clock.js';
import { warsawDate, weekStart } from '../../util/time.js';
import { knownNames } from '../../util/redact.js';
import type { AccountConfig, Config } from '../../config/schema.js';
import type { Language } from '../../config/language.js';
import { loginKey } from '../../runner/family-road.js';
import { checkFamily } from './check-family.js';
import { checkHomeAssistant } from './check-homeassistant.js';
import type { Logger } from '../../util/log.js';
import { addressLine, formatWebUrls, loadOrCreateToken, metricsLine, webBaseUrl, webUrls } from '../../outputs/web/token.js';
import { ADDRESS_WORDS } from '../../i18n/address-words.js';
import { offeredCalendarFeeds } from '../../features/calendar-feeds/calendar-feeds.js';

/** The cookie that marks this machine as a known device to the portal (spec: persist it). */
const DEVICE_COOKIE = 'DeviceCookie';

/** What `check` is run with. */
export interface CheckOptions {
  config: Config;
  out: { write(text: string): unknown };
  log: Logger;
  clock?: Clock;
  /** Print the addresses with the access token (`check --show-token`); else without it. */
  showToken?: boolean;
  /** `check --trace FILE`: write each account's login and first reads there (no secrets, no child data). */
  trace?: string;
}

export async function runCheck(options: CheckOptions): Promise<number> {
  let failed = 0;
  // Each child with whether its account has the agenda and homework (a kindergarten child's has not): Home Assistant's lines follow it.
  const children: { id: string; name: string; schoolwork: boolean }[] = [];
  // How each login entry ended: an e-mail entry's child with a login entry of its own is told as the bridge reads it.
  const register = new Map<string, 'ok' | ProblemReason>();
  // Its errors and the --trace file cut every login and e-mail of the config to a hint.
  knownNames.addConfig(options.config);
  // Which build answers (a bug report quotes it): the version Home Assistant's device page and the diagnostics say.
  options.out.write(`dziennik2mqtt ${VERSION}\n`);
  const trace = options.trace === undefined ? undefined : new LoginTrace(options.config.portal);
  for (const [n, account] of options.config.accounts.entries()) {
    trace?.account(n + 1);
    const result = await checkAccount(account, options, trace);
    register.set(loginKey(account.login), result.ok ? 'ok' : result.reason);
    if (!result.ok) failed++;
    if (result.id !== undefined) children.push({ id: result.id, name: result.name ?? result.id, schoolwork: !result.kindergarten });
  }
  for (const [n, entry] of options.config.families.entries()) {
    trace?.account(options.config.accounts.length + n + 1);
    const result = await checkFamily(entry, n, options, register, trace);
    failed += result.failed;
    children.push(...result.children);
  }
  // Where the bridge will publish and listen: the likeliest fault of a new install (interface 12.3).
  const broker = await checkBroker(options.config, options.out);
  const entries = options.config.accounts.length + options.config.families.length;
  // A child both roads reach (a login entry, and an e-mail entry's list) is one child, with one board and one set of
  // calendars; a kindergarten child as either road found her.
  const once = [...new Map(children.map((c) => [c.id, { ...c, schoolwork: children.every((o) => o.id !== c.id || o.schoolwork) }])).values()];
  const say = CHECK_TEXT[options.config.language];
  const last =
    failed > 0
      ? say.someFailed(String(failed), String(entries))
      : broker
        ? say.allWork(once.length, entries)
        : say.broker.accountsOnly(once.length, entries);
  options.out.write(`\n${last}\n`);
  if (trace && options.trace !== undefined) await writeTrace(options, options.trace, trace);
  await printWebUrls(options, once);
  const ha = await checkHomeAssistant(options.config, options.out, once);
  return failed === 0 && broker && ha ? 0 : 1;
}

/**
 * The web server's addresses. With --show-token (the one place besides the first start and a rotation
 * that shows them) with the access token, made here if the bridge has not run yet, so the first start
 * then reuses it; without, the bare addresses and the token is not touched: a check's output is often
 * pasted into a question, and the first start then still prints the full addresses.
 */
async function printWebUrls(options: CheckOptions, children: readonly { id: string; schoolwork: boolean }[]): Promise<void> {
  const { http, data_dir, language } = options.config;
  const say = CHECK_TEXT[language];
  const words = ADDRESS_WORDS[language];
  if (http.port === 0) return void options.out.write(`\n${say.webOff}\n`);
  const token = options.showToken ? await loadOrCreateToken(data_dir).catch((error: NodeJS.ErrnoException) => error) : undefined;
  if (token instanceof Error) return void options.out.write(`\n${say.tokenUnreadable(data_dir, token.code ?? 'error')}\n`);
  const base = webBaseUrl(http.bind, http.port);
  const lines = token
    ? [
        say.webWithToken,
        ...formatWebUrls(
          webUrls(
            base,
            children.map((c) => c.id),
            token.value,
            (id) => offeredCalendarFeeds(children.find((c) => c.id === id)?.schoolwork ?? true),
          ),
          language,
        ),
        ...(http.metrics ? [metricsLine(base, token.value, language)] : []),
      ]
    : [say.webBare, addressLine(words.board, `${base}/`, language)];
  options.out.write(['', ...lines, addressLine(words.health, `${base}/health`, language), ''].join('\n'));
}

/** Writes the transcript (owner-only: it is meant for a bug report, but shows the school's answers). */
async function writeTrace(options: CheckOptions, file: string, trace: LoginTrace): Promise<void> {
  const say = CHECK_TEXT[options.config.language];
  const header = [
    `# dziennik2mqtt ${VERSION} check --trace`,
    "# Each request of every account's login and first reads: method, host, path, status, Location, the",
    '# names of cookies set, content type and the shape of the body. No password, cookie or token value,',
    '# code or state value, or child data is written.',
  ].join('\n');
  try {
    await writeFile(file, trace.text(header), { mode: 0o600 });
    options.out.write(`\n${say.traceWritten(file)}\n`);
  } catch (error) {
    options.out.write(`\n${say.traceNotWritten(file, (error as NodeJS.ErrnoException).code ?? 'error')}\n`);
  }
}

/** Whether the account works, and its child's id when known (configured, or from the child's name). */
async function checkAccount(
  account: AccountConfig,
  options: CheckOptions,
  trace?: LoginTrace,
): Promise<
  | { ok: true; id: string; name: string; kindergarten: boolean }
  | { ok: false; reason: ProblemReason; id?: string; name?: undefined; kindergarten?: undefined }
> {
  const { config, out, log } = options;
  const clock = options.clock ?? systemClock;
  const say = CHECK_TEXT[config.language];
  // The bridge's saved session is read, never written: a running bridge keeps using it. check logs in
  // with the password in a jar of its own, which holds only the device cookie of the saved one, so
  // the portal sees the same device and no new-device login.
  const store = new SessionStore(config.data_dir, account.login);
  const saved = await store.load().catch(() => undefined);
  // The same portal access the bridge uses, without its session store: check logs in afresh.
  // Its log lines name the account as the bridge's do (the portal's parts log on the logger they are given).
  const access = new PortalAccess({ account, urls: config.portal, clock, log: log.child({ account: account.id ?? account.login }) });
  const { session, gateway, messaging } = access;
  if (saved) session.http.useJar(await deviceOnlyJar(saved));
  const unobserve = trace ? session.http.observe((exchange) => trace.record(exchange)) : undefined;
  try {
    const loggedInAt = clock.now();
    await session.forceLogin();
    // The account logs in: a pause a refusal left (a false "wrong password") ends, and the next start reads at once.
    await store.noteCheckedLogin(loggedInAt).catch((error: unknown) => log.warn({ err: errorText(error) }, 'cannot note the login in data_dir'));
    const me = await fetchIdentity(gateway, clock.now(), log);
    // Saved as the bridge would, so that `dashboard` knows the child right after a check.
    await saveIdentity(config.data_dir, account.login, me);
    const name = `${me.firstName} ${me.lastName}`.trim();
    const id = account.id ?? childSlug(me.firstName);
    const { modules, kindergarten } = await probeModules(
      { gateway, messages: access.messages, copies: access.cache, identity: () => me, clock, log },
      me,
      config.language,
    );
    const school = me.schoolName ?? say.schoolUnknown;
    // `OK   `/`FAIL ` and the login open the line in every language: scripts and bug reports look for them.
    out.write(
      `OK   ${account.login}: ${kindergarten ? say.kindergartenAccount(name, school, id) : say.account(name, me.className ?? '?', school, id)}\n`,
    );
    out.write(`     ${say.registerNumber(me.registerNumber ?? say.registerNumberUnknown)}\n`);
    if (session.advice !== undefined) out.write(`     ${say.advice}: ${passwordChangeAdvice(config.language)}\n`);
    const messages = await messaging.probe().catch((error: unknown) => {
      log.debug({ err: errorText(error) }, 'messages probe failed');
      return undefined;
    });
    modules.unshift([say.module.messages, messages === undefined ? say.didNotAnswer : messages ? say.yes : say.noMessagesModule]);
    out.write(`     ${say.modules}: ${modules.map(([m, s]) => `${m}: ${s}`).join(', ')}\n`);
    // With no session saved yet, this one becomes the bridge's first: its start then needs no login.
    if (!saved && !(await store.load().catch(() => undefined))) {
      await store.save({ version: 1, cookies: await session.http.serialize(), loggedInAt });
    }
    trace?.outcome(session.advice === undefined ? 'logged in and read' : `logged in and read (advice: ${session.advice})`);
    return { ok: true, id, name: me.firstName || id, kindergarten };
  } catch (error) {
    const reason = problemReason(error);
    const [what, advice] = say.help[reason];
    const words = portalMessageOf(error);
    const said = words === undefined ? '' : ` ${portalSays(words, config.language)}`;
    const detail = reason === 'unexpected_response' && error instanceof Error ? ` (${error.message})` : said;
    out.write(`FAIL ${account.login}: ${what}: ${advice}${detail}\n`);
    const step = loginStepOf(error);
    if (step !== undefined) out.write(`     ${say.stoppedAt(say.step[step])}\n`);
    trace?.outcome(step === undefined ? `failed: ${reason}` : `the login stopped at step "${step}": ${reason}`);
    return { ok: false, reason, id: account.id };
  } finally {
    unobserve?.();
  }
}

/** A new jar holding only the saved session's device cookie (with its /OAuth path), if it has one. */
export async function deviceOnlyJar(saved: PersistedSession): Promise<CookieJar> {
  const jar = await CookieJar.deserialize(saved.cookies as never).catch(() => undefined);
  if (!jar) return new CookieJar();
  const all = await jar.serialize();
  return CookieJar.deserialize({ ...all, cookies: all.cookies.filter((c) => c.key === DEVICE_COOKIE) });
}

/**
 * Each optional module and what it answered, in the config's language (`notUsed`: Disabled, a "not
 * active" Code, or null), each read through its declaration as the bridge reads it. An answer of a
 * shape the bridge does not expect still says the module answers (the bridge reports the shape).
 * Timetables refused, the kindergarten plan is searched for as the bridge searches: found, the child is
 * a kindergarten child and its kindergarten plan of blocks stands in the timetable's place; a module refused to her (or
 * switched off) is one a kindergarten does not have (not an error), and the school's kinds of grades are not told.
 */
async function probeModules(portal: Portal, child: Identity, language: Language): Promise<{ modules: [string, string][]; kindergarten: boolean }> {
  const say = CHECK_TEXT[language];
  let timetableRefused = false;
  /** The modules the child's account lacks: refused, or switched off (a kindergarten's lucky number, live-notes 58). */
  const lacking = new Set<string>();
  const probe = async <T>(name: string, res: Resource<T>, key?: string, used = (_: T) => true): Promise<[string, string]> => {
    try {
      return [name, used(await res.read(portal, key)) ? say.yes : say.notUsed];
    } catch (error) {
      if (!(error instanceof UnexpectedResponseError)) throw error;
      if (!error.refused) {
        if (error.status === 200) return [name, say.yes];
        throw error;
      }
      lacking.add(name);
      if (error.switchedOff) return [name, say.notUsed];
      if (res === TIMETABLE) timetableRefused = true;
      return [name, res === TIMETABLE && error.status === 403 ? say.notPublished : say.refused(String(error.status))];
    }
  };
  // The features' own lines (features/screen-parts.ts), in the features' order.
  const results: [string, string][] = [];
  for (const { check: c } of FEATURES) if (c) results.push(await probe(c.name(language), c.read, undefined, (answer) => c.used?.(answer) ?? true));
  const timetable = await probe(say.module.timetable, TIMETABLE, weekStart(warsawDate(portal.clock.now())));
  const kindergartenSearch = timetableRefused ? await KINDERGARTEN_SEARCH.read(portal, undefined) : undefined;
  const kindergarten = kindergartenSearch?.state === 'found';
  // A search that could not finish says so; one that found nothing leaves the school's "not published yet".
  results.push(
    kindergarten
      ? [say.module.kindergartenPlan, say.yes]
      : kindergartenSearch?.state === 'failed'
        ? [say.module.timetable, say.didNotAnswer]
        : timetable,
  );
  if (kindergarten) return { modules: results.map(([name, answer]) => [name, lacking.has(name) ? say.notInKindergarten : answer]), kindergarten };
  const units = childUnit(await UNITS.read(portal, undefined).catch(() => undefined), child.unitId);
  if (units?.point !== undefined) results.push([say.module.point, units.point ? say.yes : say.no]);
  if (units?.descriptive !== undefined) results.push([say.module.descriptive, units.descriptive ? say.yes : say.no]);
  return { modules: results, kindergarten };
}
