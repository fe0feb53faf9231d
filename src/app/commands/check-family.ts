// `check` for an `email` entry: the family portal logged in once, its linked children listed with their
// links' states, and each child told as the bridge will read it (roads.ts). A child with no login entry
// of its own is read on the family road, proved by one read there. A child with one is read on the
// register road, the family road standing behind it: while its register login fails for a reason of
// the portal's, the family road reads it (proved by one read); with a wrong register password, never
// (the password is the family's to fix), so no OK line stands over that child.
import { PortalAccess } from '../../engine/resources/portal-access.js';
import { loginStepOf, NoChildrenError, portalMessageOf, problemReason, type ProblemReason } from '../../portal/errors.js';
import { portalSays } from '../../i18n/problem-advice.js';
import { CHECK_TEXT, type FamilyHelp } from '../../i18n/check-text.js';
import { errorText, hint } from '../../util/text.js';
import type { LoginTrace } from '../../portal/trace.js';
import { childSlug } from '../../engine/identity.js';
import { readMe } from '../../engine/resources/identity.js';
import { systemClock, type Clock } from '../../util/clock.js';
import type { Config, FamilyAccountConfig } from '../../config/schema.js';
import type { FamilyAccount } from '../../portal/family.js';
import type { LinkedChild } from '../../portal/family-login.js';
import { familyRoadOf, familySessionName, loginKey } from '../../runner/family-road.js';
import { saveLinkedChildren } from '../../runner/linked-children.js';
import { SessionStore } from '../../portal/session-store.js';
import type { Logger } from '../../util/log.js';
import type { Language } from '../../config/language.js';
import type { PortalSession } from '../../portal/session.js';

/** How each login entry's check ended, by its login key: `ok`, or why it failed. */
export type RegisterResults = ReadonlyMap<string, 'ok' | ProblemReason>;

/**
 * An `email` entry's check: the family portal's login, its linked children (as the entry names them), then each child
 * told as the bridge will read it. How many failed, and the children it will read.
 */
export async function checkFamily(
  entry: FamilyAccountConfig,
  n: number,
  /** `check`'s options (check.ts, CheckOptions), as far as an entry's check reads them. */
  options: { config: Config; out: { write(text: string): unknown }; log: Logger; clock?: Clock },
  register: RegisterResults,
  trace?: LoginTrace,
): Promise<{ failed: number; children: { id: string; name: string; schoolwork: boolean }[] }> {
  const { config, out, log } = options;
  const clock = options.clock ?? systemClock;
  const familyRoad = familyRoadOf(entry, n, { urls: config.portal, clock, log });
  const stops: (() => void)[] = [];
  // Every session of the check is in the transcript (`--trace`): the family portal's, then each child's.
  const observe = (session: PortalSession): void => {
    if (trace) stops.push(session.http.observe((exchange) => trace.record(exchange)));
  };
  observe(familyRoad.session);
  const told: Told = { say: CHECK_TEXT[config.language], out, language: config.language, trace };
  // The entry is named as the diagnostics name it: its e-mail masked (a check's output is often pasted into a question).
  const masked = hint(entry.email.trim());
  try {
    const children = await linkedChildren(familyRoad, entry, { config, clock, log });
    out.write(`OK   ${masked}: ${told.say.familyAccount(String(children.length))}\n`);
    let failed = 0;
    const ids: { id: string; name: string; schoolwork: boolean }[] = [];
    for (const child of children) {
      const id = entry.children?.find((c) => loginKey(c.login) === loginKey(child.login))?.id ?? childSlug(child.studentName.split(/\s+/)[0] ?? '');
      const read = await checkLinkedChild(child, id, register.get(loginKey(child.login)), {
        config,
        clock,
        log,
        familyRoad,
        told,
        observe,
      });
      if (read === 'failed') failed++;
      else if (read !== 'wrong_password') ids.push({ id, name: child.studentName.split(/\s+/)[0] || child.login, schoolwork: read.schoolwork });
    }
    trace?.outcome(failed === 0 ? 'logged in, listed the children and read each' : `logged in; ${failed} child(ren) failed`);
    return { failed, children: ids };
  } catch (error) {
    failLine(masked, error, told);
    return { failed: 1, children: [] };
  } finally {
    for (const stop of stops) stop();
  }
}

/** Where a check's lines go, in which words, and the login's transcript (`--trace`). */
interface Told {
  say: (typeof CHECK_TEXT)[Language];
  out: { write(text: string): unknown };
  language: Language;
  trace: LoginTrace | undefined;
}

/**
 * The family portal's login (noted in data_dir: a pause a refusal left ends, and the next start reads at once) and the
 * children linked to the e-mail, kept as the bridge keeps them; those the entry names, when it names some.
 */
async function linkedChildren(
  familyRoad: FamilyAccount,
  entry: FamilyAccountConfig,
  { config, clock, log }: { config: Config; clock: Clock; log: Logger },
): Promise<LinkedChild[]> {
  const loggedInAt = clock.now();
  await familyRoad.session.forceLogin();
  await new SessionStore(config.data_dir, familySessionName(entry.email))
    .noteCheckedLogin(loggedInAt)
    .catch((error: unknown) => log.warn({ err: errorText(error) }, 'cannot note the login in data_dir'));
  const listed = await familyRoad.children();
  // Kept as the bridge keeps it, so that `dashboard` names these children right after a check.
  await saveLinkedChildren(config.data_dir, familySessionName(entry.email), listed).catch((error: unknown) =>
    log.warn({ err: errorText(error) }, 'cannot keep the list of linked children in data_dir'),
  );
  const wanted = entry.children?.map((c) => loginKey(c.login));
  const children = wanted === undefined ? listed : listed.filter((c) => wanted.includes(loginKey(c.login)));
  if (listed.length === 0) throw new NoChildrenError(familyRoad.label);
  return children;
}

/**
 * One linked child as the bridge will read it, by how its own login entry's check ended (`ownLogin`): read on the
 * register road (that line proved it), never while its register password is wrong (counted under its login entry),
 * else on the family road, proved by one read there.
 */
async function checkLinkedChild(
  child: LinkedChild,
  id: string,
  ownLogin: 'ok' | ProblemReason | undefined,
  ctx: { config: Config; clock: Clock; log: Logger; familyRoad: FamilyAccount; told: Told; observe: (session: PortalSession) => void },
): Promise<{ schoolwork: boolean } | 'wrong_password' | 'failed'> {
  const { say, out } = ctx.told;
  const state = say.linkState(child.state);
  if (ownLogin === 'ok') {
    // Its login entry's check told what it is.
    out.write(`OK   ${child.login}: ${say.linkedChild(child.studentName, state, id, say.road.register)}\n`);
    return { schoolwork: true };
  }
  if (ownLogin === 'wrong_credentials') {
    out.write(`FAIL ${child.login}: ${say.linkedChildWrongPassword(child.studentName, id)}\n`);
    return 'wrong_password';
  }
  const account = { login: child.login, password: '', id, downloads: false, messages: [], write_messages: false };
  const { gateway, session } = new PortalAccess({
    account,
    urls: ctx.config.portal,
    clock: ctx.clock,
    log: ctx.log.child({ account: id }),
    familyRoad: ctx.familyRoad,
  });
  ctx.observe(session);
  try {
    const me = await readMe(gateway);
    const road = say.road[ownLogin === undefined ? 'family' : 'family-standing-in'];
    out.write(`OK   ${child.login}: ${say.linkedChild(child.studentName, state, id, road)}\n`);
    // A Me that names no class is a kindergarten child's (live-notes 58): no agenda nor homework, as the bridge announces her.
    return { schoolwork: me.Class !== undefined };
  } catch (error) {
    failLine(child.login, error, ctx.told);
    return 'failed';
  }
}

/** A FAIL line: what went wrong and what to do, in the family road's words where they differ, and where the login stopped. */
function failLine(who: string, error: unknown, { say, out, language, trace }: Told): void {
  const reason = problemReason(error);
  // The family road's words where they differ: its own e-mail and password, the family portal, no child linked.
  const road: FamilyHelp | undefined =
    error instanceof NoChildrenError ? 'no_children' : reason in say.familyHelp ? (reason as FamilyHelp) : undefined;
  const [what, advice] = road === undefined ? say.help[reason] : say.familyHelp[road];
  const words = portalMessageOf(error);
  out.write(`FAIL ${who}: ${what}: ${advice}${words === undefined ? '' : ` ${portalSays(words, language)}`}\n`);
  const step = loginStepOf(error);
  if (step !== undefined) out.write(`     ${say.stoppedAt(say.step[step])}\n`);
  trace?.outcome(step === undefined ? `failed: ${reason}` : `the login stopped at step "${step}": ${reason}`);
}
