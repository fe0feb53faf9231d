// Who a written message may go to: the child's teachers (GET /receivers/student-subjects, named
// through the teachers' receiver groups) with their subjects, and the class tutor, as the options
// of the `recipient` select ("Matematyka – Tomasz Zieliński", "Wychowawca – Anna Nowak").
import * as z from 'zod';
import { notSent } from './errors.js';
import { nameKey, optional, resolveRecipient, type Recipient, type RecipientDeps } from './recipients.js';
import type { Receiver } from '../../portal/schemas/messages.js';

export const targetSchema = z.object({ option: z.string(), accountId: z.string(), person: z.string() });
export type WriteTarget = z.output<typeof targetSchema>;

/** The groups searched for a teacher's name (the portal lists teachers there, the tutor in tutors). */
const NAME_GROUPS = ['teachers', 'tutors'];

/** The portal's "Nowak Anna" as "Anna Nowak"; a label of other than two words stays as it is. */
export function personName(label: string): string {
  const words = label.trim().split(/\s+/);
  return words.length === 2 ? `${words[1]} ${words[0]}` : label.trim();
}

/** The options: each teacher with each subject, then the class tutor (unique names, in the portal's order). */
export async function writeTargets(deps: RecipientDeps): Promise<WriteTarget[]> {
  const out: WriteTarget[] = [];
  const add = (option: string, accountId: string, person: string): void => {
    if (!out.some((t) => t.option === option)) out.push({ option, accountId, person });
  };
  const names = new Map<string, Receiver>();
  for (const group of NAME_GROUPS) {
    for (const r of await optional(() => deps.api.groupReceivers(group), [])) if (!names.has(r.accountId)) names.set(r.accountId, r);
  }
  for (const t of await optional(() => deps.api.teacherSubjects(), [])) {
    const receiver = names.get(t.accountId);
    if (!receiver) continue;
    const person = personName(receiver.label);
    add(t.subject ? `${t.subject} – ${person}` : person, t.accountId, person);
  }
  const tutor = await optional<Recipient | undefined>(() => resolveRecipient('class_tutor', deps), undefined);
  if (tutor) add(`Wychowawca – ${personName(tutor.label)}`, tutor.accountId, personName(tutor.label));
  return out;
}

/**
 * The target `to` names: an option as shown, `class_tutor`, or a person's name (one person, whatever
 * their subjects). Unknown or several people refuse (sent: false).
 */
export function pickTarget(to: string, targets: readonly WriteTarget[]): WriteTarget {
  const exact = targets.find((t) => t.option === to);
  if (exact) return exact;
  if (to === 'class_tutor') {
    const tutor = targets.find((t) => t.option.startsWith('Wychowawca – '));
    if (tutor) return tutor;
    throw notSent('recipient_unknown', 'the portal names no class tutor for this class');
  }
  const key = nameKey(to);
  const people = new Map(targets.filter((t) => key !== '' && nameKey(t.person) === key).map((t) => [t.accountId, t]));
  if (people.size === 1) return [...people.values()][0]!;
  if (people.size === 0) throw notSent('recipient_unknown', `"${to.slice(0, 80)}" is not among the recipients`);
  throw notSent('recipient_ambiguous', `"${to.slice(0, 80)}" matches ${people.size} people; choose a recipient option`);
}
