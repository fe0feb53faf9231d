// Who a fixed message goes to. The portal addresses messages by a messaging accountId; the config says
// class_tutor, a teacher's name, or the accountId itself. Names are matched against the receivers
// lists (case, diacritics, word order and titles ignored); anything unknown or ambiguous refuses.
import { UnexpectedResponseError } from '../../portal/errors.js';
import { fold } from '../../rules/order.js';
import { MessageNotSentError, notSent } from './errors.js';
import type { FixedMessage } from '../../config/schema.js';
import type { User as LookupUser } from '../../portal/schemas/lookups.js';
import type { MessagesApi } from '../../portal/messaging-api.js';
import type { Receiver } from '../../portal/schemas/messages.js';
import type { Identity } from '../../engine/identity.js';

/** Receiver groups that hold parents or custom lists, not school staff: never searched for a teacher. */
const NOT_STAFF = new Set(['parentsCouncil', 'schoolParentsCouncil', 'customGroups']);
/** Searched first and when the portal does not list its groups. */
const PREFERRED_GROUPS = ['tutors', 'teachers'];
const TITLES = new Set(['mgr', 'dr', 'inz', 'lic', 'prof', 'hab', 'pani', 'pan']);

/** A receiver as the portal lists it: its messaging accountId, and its name (`label`, for the result and the log). */
export type Recipient = Receiver;

export interface RecipientDeps {
  api: MessagesApi;
  /** A user of the Users lookup by id, read through the table (the class tutor's name and account). */
  user: (id: string) => Promise<LookupUser | undefined>;
  identity: Identity;
}

export async function resolveRecipient(to: FixedMessage['to'], deps: RecipientDeps): Promise<Recipient> {
  if (to === 'class_tutor') return classTutor(deps);
  if ('account_id' in to) return { accountId: to.account_id.trim(), label: to.account_id.trim() };
  return byName(to.teacher, await staff(deps.api), `teacher "${to.teacher}"`);
}

/** A name reduced for comparison: folded words, without titles and parenthesised notes, sorted. */
export function nameKey(name: string): string {
  return fold(name.replace(/\([^)]*\)/g, ' '))
    .split(/[\s,]+/)
    .map((w) => w.replace(/\.+$/, ''))
    .filter((w) => w !== '' && !TITLES.has(w))
    .sort()
    .join(' ');
}

/** The one receiver whose name matches; several people of that name refuse, as does nobody. */
export function byName(name: string, receivers: readonly Receiver[], what: string): Recipient {
  const key = nameKey(name);
  const found = unique(receivers.filter((r) => key !== '' && nameKey(r.label) === key));
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw notSent('recipient_unknown', `${what} is not among the receivers the portal offers`);
  throw notSent('recipient_ambiguous', `${what} matches ${found.length} receivers; use account_id`);
}

/**
 * The class tutor: the class's ClassTutor is a gateway Users id, the receivers lists know messaging
 * accountIds. The Users lookup gives the tutor's name (and account LID), which is found in the
 * tutors group first and in every staff group after. A tutors group of one person is taken only
 * when the lookup gives no name to check it against.
 */
async function classTutor(deps: RecipientDeps): Promise<Recipient> {
  const tutorId = deps.identity.classTutorId;
  if (tutorId === undefined) throw notSent('recipient_unknown', 'the portal does not name a class tutor for this class');
  const user = await deps.user(tutorId);
  const name = [user?.FirstName, user?.LastName].filter((p) => p?.trim()).join(' ');
  const tutors = await group(deps.api, 'tutors');
  const byLid = user?.AccountId === undefined ? undefined : tutors.find((r) => r.accountId === user.AccountId?.trim());
  if (byLid) return byLid;
  if (name === '') {
    const only = unique(tutors);
    if (only.length === 1) return only[0]!;
    throw notSent('recipient_unknown', 'the class tutor is not in the Users lookup');
  }
  if (tutors.some((r) => nameKey(r.label) === nameKey(name))) return byName(name, tutors, `the class tutor (${name})`);
  return byName(name, await staff(deps.api, { tutors }), `the class tutor (${name})`);
}

/** Every school employee the portal offers as a receiver, across its groups (those already read reused). */
async function staff(api: MessagesApi, read: Record<string, Receiver[]> = {}): Promise<Receiver[]> {
  let groups = PREFERRED_GROUPS;
  try {
    const offered = (await api.receiverTypes()).map((t) => t.id).filter((id) => !NOT_STAFF.has(id));
    groups = [...new Set([...PREFERRED_GROUPS.filter((g) => offered.includes(g)), ...offered])];
  } catch (error) {
    if (!isRefusal(error)) throw error;
  }
  const out: Receiver[] = [];
  for (const g of groups) out.push(...(read[g] ?? (await group(api, g))));
  return out;
}

/** A group's receivers; a group the account may not see counts as empty. */
function group(api: MessagesApi, id: string): Promise<Receiver[]> {
  return optional(() => api.groupReceivers(id), []);
}

/** A list the account may not see (403, 404: a kindergarten account) counts as empty, as does a recipient no list names. */
export async function optional<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isRefusal(error) || error instanceof MessageNotSentError) return fallback;
    throw error;
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof UnexpectedResponseError && (error.status === 403 || error.status === 404);
}

/** One entry per accountId: the same person is listed in several groups (tutors and teachers). */
function unique(receivers: readonly Receiver[]): Receiver[] {
  return receivers.filter((r, i) => receivers.findIndex((o) => o.accountId === r.accountId) === i);
}
