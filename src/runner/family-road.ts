// The children an `email` entry brings to the bridge (interface 9.1): those its `children` lists, or
// every child the family portal links to it, each named by its first name; each is then read through
// the family account (engine/resources/portal-access.ts). A child with a `login` entry of its own keeps the register road,
// with this family road behind it while its register login fails (portal/roads.ts).
import { createHash } from 'node:crypto';
import { FamilyAccount, type FamilyAccountOptions } from '../portal/family.js';
import { SessionStore } from '../portal/session-store.js';
import { saveLinkedChildren, type LinkedChildRecord } from './linked-children.js';
import { NoChildrenError, problemReason } from '../portal/errors.js';
import { childSlug } from '../engine/identity.js';
import type { AccountConfig, FamilyAccountConfig } from '../config/schema.js';
import { errorText } from '../util/text.js';

/** A family account's options (its session's) and where the bridge keeps what it learns. */
export interface FamilyChildrenOptions extends Pick<FamilyAccountOptions, 'urls' | 'clock' | 'log' | 'dispatcher' | 'portalTime' | 'policy'> {
  /** Where each family portal's session (its cookies and any login pause) is kept between runs. */
  dataDir: string;
  /** Logins that have their own `login` entry: the register road reads them. */
  registerLogins: ReadonlySet<string>;
  /** Whether the list of linked children could be kept in data_dir (the error; `undefined`: it could). */
  storage?: (error: unknown) => void;
}

export interface FamilyChild {
  account: AccountConfig;
  familyRoad: FamilyAccount;
  /** The child has a `login` entry of its own: the register road reads it, this family road stands behind. */
  alsoRegister: boolean;
}

/** The children the e-mail entries bring, and the entries whose children could not be listed yet. */
export interface FamilyEntries {
  children: FamilyChild[];
  unlisted: UnlistedFamily[];
}

/** An `email` entry whose login or list failed at start: the bridge asks again (relisting.ts) until it lists them. */
export interface UnlistedFamily {
  familyRoad: FamilyAccount;
  /** The entry's e-mail: the bridge's own `problem` names the entry by it, masked. */
  email: string;
  /** Why the first listing failed (a login pause says when to ask again). */
  error: unknown;
  /** Its children as the portal lists them now; throws as the login or the list fails. */
  list(): Promise<FamilyChild[]>;
}

/** An `email` entry's family road, which logs and errors name by the entry's place (`family1`), never by the e-mail. */
export function familyRoadOf(entry: FamilyAccountConfig, index: number, options: Omit<FamilyAccountOptions, 'account' | 'email' | 'password'>) {
  const label = `family${index + 1}`;
  return new FamilyAccount({
    ...options,
    account: label,
    email: entry.email,
    password: entry.password ?? '',
    log: options.log.child({ account: label }),
  });
}

/** Every family entry's children, in the order of the config (then of the portal's list). */
export async function familyChildren(entries: readonly FamilyAccountConfig[], options: FamilyChildrenOptions): Promise<FamilyEntries> {
  const found: FamilyEntries = { children: [], unlisted: [] };
  for (const [i, entry] of entries.entries()) {
    const familyRoad = familyRoadOf(entry, i, { ...options, store: new SessionStore(options.dataDir, familySessionName(entry.email)) });
    // A restart reuses the portal's session, and keeps a pause after a refused login.
    await familyRoad.session.restore();
    const list = () => listChildren(entry, familyRoad, options);
    try {
      found.children.push(...(await list()));
    } catch (error) {
      // Without a list the bridge cannot know the children; `children:` in the config names them ahead.
      options.log.warn(
        { account: familyRoad.label, reason: problemReason(error), err: errorText(error) },
        'the family portal’s children could not be listed; asked again as a failed pass is, and read once listed',
      );
      found.unlisted.push({ familyRoad, email: entry.email, error, list });
    }
  }
  return found;
}

/** An entry's children: those its `children` names, else those the portal links now (throws as the login or the list fails). */
async function listChildren(entry: FamilyAccountConfig, familyRoad: FamilyAccount, options: FamilyChildrenOptions): Promise<FamilyChild[]> {
  const linked = entry.children ? [] : await familyRoad.children();
  if (!entry.children) {
    // Nobody linked yet: asked again as a failed listing is, and the bridge's own `problem` says so meanwhile.
    if (linked.length === 0) throw new NoChildrenError(familyRoad.label);
    // Kept for `dashboard`, which names these children without logging in; a failed write costs only that.
    await saveLinkedChildren(options.dataDir, familySessionName(entry.email), linked).then(
      () => options.storage?.(undefined),
      (error: unknown) => {
        options.log.warn({ account: familyRoad.label, err: errorText(error) }, 'cannot keep the list of linked children in data_dir');
        options.storage?.(error);
      },
    );
  }
  return linkedAccounts(entry, linked).map((account) => {
    const alsoRegister = options.registerLogins.has(loginKey(account.login));
    if (alsoRegister)
      options.log.info(
        { account: familyRoad.label, child: account.id },
        'this child has a login entry of its own: it is read on the register road, and on this family road while its register login fails',
      );
    return { account, familyRoad, alsoRegister };
  });
}

/**
 * The children of an e-mail entry as accounts of the bridge: those its `children` lists, else every
 * child the portal linked, its id its first name (shared with `dashboard`, which reads the saved list).
 */
export function linkedAccounts(entry: FamilyAccountConfig, linked: readonly LinkedChildRecord[]): AccountConfig[] {
  if (entry.children) return entry.children.map((c) => ({ ...c, password: '' }));
  return linked.map((c) => ({
    login: c.login,
    password: '',
    id: childSlug(c.studentName.split(/\s+/)[0] ?? ''),
    downloads: entry.downloads ?? false,
    messages: [],
    write_messages: entry.write_messages ?? false,
  }));
}

/** A login as the config and the portal may spell it: one key for both roads. */
export function loginKey(login: string): string {
  return login.trim().toLowerCase();
}

/** The file name of a family portal's saved session: a digest, so the e-mail never names a file. */
export function familySessionName(email: string): string {
  return `family-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;
}
