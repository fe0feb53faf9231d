// A child's homework list in Home Assistant kept in step with the school's homework (interface 15.4):
// what each homework becomes as a to-do item, and what to do so the list shows it. The open homework of
// the next two weeks is added once; what the school changes is changed, what it removes is removed; what
// the family ticked stays ticked and what it deleted is never added again. Pure: the keeper acts on it.
import type { AgendaEntry } from '../../rules/calendar-feeds.js';
import { isUpcoming } from '../../rules/homework.js';
import type { HaItem } from './client.js';
import type { KeptItem } from './made.js';

/** A homework item as the bridge writes it into the list (the due date YYYY-MM-DD). */
export type Written = Pick<KeptItem, 'summary' | 'description' | 'due'>;

/** The longest summary written: a to-do list shows one line; the whole text is the description. */
const SUMMARY_CHARS = 120;

/** Each homework of a child's agenda feed, as the list shows it, by its uid; `fallback` names one without subject or topic. */
export function homeworkItems(entries: readonly AgendaEntry[], fallback: string): Map<string, Written> {
  const out = new Map<string, Written>();
  for (const e of entries) {
    if (e.kind !== 'homework') continue;
    const what = e.label ?? e.text?.split('\n')[0] ?? null;
    const summary = [e.subject, what].filter((part) => part !== null && part !== '').join(': ') || fallback;
    out.set(e.uid, {
      summary: summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary,
      description: e.text,
      due: e.when.date,
    });
  }
  return out;
}

const same = (a: Written, b: Written): boolean => a.summary === b.summary && a.description === b.description && a.due === b.due;
/** Open: what homework_upcoming lists (its one rule): due today or within the next two weeks. */
const open = (w: Written, today: string): boolean => isUpcoming(w.due, today);

export type TodoStep =
  | { do: 'add'; uid: string; written: Written }
  | { do: 'update'; uid: string; item: string; written: Written }
  | { do: 'remove'; uid: string; item: string }
  /** The item an add made, found in the listing; `written` when it was not added here (a predecessor's, an add whose answer was lost). */
  | { do: 'found'; uid: string; item: string; written?: Written }
  /** Deleted by the family, or a ticked item the school removed: forgotten for good. */
  | { do: 'gone'; uid: string };

/** Whether the list needs looking at: a homework to add, one the school changed or removed. No call to Home Assistant otherwise. */
export function needsLook(homework: ReadonlyMap<string, Written>, kept: Readonly<Record<string, KeptItem>>, today: string): boolean {
  for (const [uid, written] of homework) {
    const k = kept[uid];
    if (k === undefined ? open(written, today) : !k.gone && !same(k, written)) return true;
  }
  return Object.entries(kept).some(([uid, k]) => !k.gone && !homework.has(uid));
}

/** The steps that bring the list (`items`, as Home Assistant listed it) in step with the homework. */
export function todoSteps(
  homework: ReadonlyMap<string, Written>,
  kept: Readonly<Record<string, KeptItem>>,
  items: readonly HaItem[],
  today: string,
): TodoStep[] {
  const steps: TodoStep[] = [];
  const claimed = new Set(Object.values(kept).flatMap((k) => (k.item === null ? [] : [k.item])));
  for (const [uid, k] of Object.entries(kept)) {
    if (k.gone) continue;
    let item = k.item === null ? undefined : items.find((i) => i.uid === k.item);
    if (k.item === null) {
      // Added before the last listing: the item of what was written that no other homework holds.
      item = items.find((i) => !claimed.has(i.uid) && i.summary === k.summary && (i.due ?? '') === k.due);
      if (item !== undefined) {
        claimed.add(item.uid);
        steps.push({ do: 'found', uid, item: item.uid });
      }
    }
    const now = homework.get(uid);
    if (item === undefined || (now === undefined && item.status !== 'needs_action')) steps.push({ do: 'gone', uid });
    else if (now === undefined) steps.push({ do: 'remove', uid, item: item.uid });
    else if (!same(k, now)) steps.push({ do: 'update', uid, item: item.uid, written: now });
  }
  for (const [uid, written] of homework) {
    if (kept[uid] !== undefined || !open(written, today)) continue;
    // Already on the list as written (by a predecessor on the base topic, or an add whose answer was lost): never twice.
    const there = items.find((i) => !claimed.has(i.uid) && i.summary === written.summary && (i.due ?? '') === written.due);
    if (there === undefined) steps.push({ do: 'add', uid, written });
    else {
      claimed.add(there.uid);
      steps.push({ do: 'found', uid, item: there.uid, written });
    }
  }
  return steps;
}
