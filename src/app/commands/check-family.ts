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
import { FamilyAccount } from '../../portal/family.js';
import { familySessionName, loginKey } from '../../runner/email-road.js';
import { saveLinkedChildren } from '../../runner/linked-children.js';
import { SessionStore } from '../../portal/session-store.js';
import type { Logger } from '../../util/log.js';

/** How each login entry's check ended, by its login key: `ok`, or why it failed. */
export type RegisterResults = ReadonlyMap<string, 'ok' | ProblemReason>;

export async function checkFamily(
  entry: FamilyAccountConfig,
  n: number,
  /** `check`'s options (check.ts, CheckOptions), as far as an entry's check reads them. */
  options: { config: Config; out: { write(text: string): unknown }; log: Logger; clock?: Clock },
  register: RegisterResults,
  trace?: LoginTrace,
): Promise<{ failed: number; children: { id: string; name: string }[] }> {
  const { config, out, log } = options;
  const clock = options.clock ?? systemClock;
  const say = CHECK_TEXT[config.language];
  const label = `family${n + 1}`;
  const family = new FamilyAccount({
    account: label,
    email: entry.email,
    password: entry.password ?? '',
    urls: config.portal,
    clock,
    log: log.child({ account: label }),
  });
  const stops = trace ? [family.session.http.observe((exchange) => trace.record(exchange))] : [];
  // The entry is named as the diagnostics name it: its e-mail masked (a check's output is often pasted into a question).
  const masked = hint(entry.email.trim());
  const fail = (who: string, error: unknown): void => {
    const reason = problemReason(error);
    // The family road's words where they differ: its own e-mail and password, the family portal, no child linked.
    const road: FamilyHelp | undefined =
      error instanceof NoChildrenError ? 'no_children' : reason in say.familyHelp ? (reason as FamilyHelp) : undefined;
    const [what, advice] = road === undefined ? say.help[reason] : say.familyHelp[road];
    const words = portalMessageOf(error);
    out.write(`FAIL ${who}: ${what}: ${advice}${words === undefined ? '' : ` ${portalSays(words, config.language)}`}\n`);
    const step = loginStepOf(error);
    if (step !== undefined) out.write(`     ${say.stoppedAt(say.step[step])}\n`);
    trace?.outcome(step === undefined ? `failed: ${reason}` : `the login stopped at step "${step}": ${reason}`);
  };
  try {
    const loggedInAt = clock.now();
    await family.session.forceLogin();
    // The e-mail logs in: a pause a refusal left ends, and the next start reads at once.
    await new SessionStore(config.data_dir, familySessionName(entry.email))
      .noteCheckedLogin(loggedInAt)
      .catch((error: unknown) => log.warn({ err: errorText(error) }, 'cannot note the login in data_dir'));
    const listed = await family.children();
    // Kept as the bridge keeps it, so that `dashboard` names these children right after a check.
    await saveLinkedChildren(config.data_dir, familySessionName(entry.email), listed).catch((error: unknown) =>
      log.warn({ err: errorText(error) }, 'cannot keep the list of linked children in data_dir'),
    );
    const wanted = entry.children?.map((c) => loginKey(c.login));
    const children = wanted === undefined ? listed : listed.filter((c) => wanted.includes(loginKey(c.login)));
    if (listed.length === 0) throw new NoChildrenError(label);
    out.write(`OK   ${masked}: ${say.familyAccount(String(children.length))}\n`);
    let failed = 0;
    const ids: { id: string; name: string }[] = [];
    for (const child of children) {
      const name = child.studentName.split(/\s+/)[0] || child.login;
      const id = entry.children?.find((c) => loginKey(c.login) === loginKey(child.login))?.id ?? childSlug(child.studentName.split(/\s+/)[0] ?? '');
      const state = say.linkState(child.state);
      const ownLogin = register.get(loginKey(child.login));
      if (ownLogin === 'ok') {
        // The register road reads this child; its login entry's line has proved it.
        out.write(`OK   ${child.login}: ${say.linkedChild(child.studentName, state, id, say.road.register)}\n`);
        ids.push({ id, name });
        continue;
      }
      if (ownLogin === 'wrong_credentials') {
        // Counted once, under its login entry: the bridge reads this child on neither road until the password is right.
        out.write(`FAIL ${child.login}: ${say.linkedChildWrongPassword(child.studentName, id)}\n`);
        continue;
      }
      const account = { login: child.login, password: '', id, downloads: false, messages: [], write_messages: false };
      const { gateway, session } = new PortalAccess({ account, urls: config.portal, clock, log: log.child({ account: id }), family });
      if (trace) stops.push(session.http.observe((exchange) => trace.record(exchange)));
      try {
        await readMe(gateway);
        const road = say.road[ownLogin === undefined ? 'family' : 'family-standing-in'];
        out.write(`OK   ${child.login}: ${say.linkedChild(child.studentName, state, id, road)}\n`);
        ids.push({ id, name });
      } catch (error) {
        failed++;
        fail(child.login, error);
      }
    }
    trace?.outcome(failed === 0 ? 'logged in, listed the children and read each' : `logged in; ${failed} child(ren) failed`);
    return { failed, children: ids };
  } catch (error) {
    fail(masked, error);
    return { failed: 1, children: [] };
  } finally {
    for (const stop of stops) stop();
  }
}
