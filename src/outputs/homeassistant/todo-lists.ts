// Each child's homework list in Home Assistant (Local To-do) in step with the school's homework: an item added for a
// new homework, brought up to date when the school changed it, removed when the school did; one the family ticked or
// deleted is never added again (homework.ts says what to do). Home Assistant is asked only when something changed.
import type { AgendaEntry } from '../../rules/calendar-feeds.js';
import { HomeAssistantError, type HaItem } from './client.js';
import { homeworkItems, needsLook, todoSteps, type TodoStep, type Written } from './homework.js';
import type { KeptItem, Known } from './made.js';
import type { Kept } from './kept.js';

/** Each child's list (of `ids`, from its agenda entries) in step; `fallback`: the summary of a homework with no subject. */
export async function keepTodoLists(
  kept: Kept,
  agenda: ReadonlyMap<string, readonly AgendaEntry[]>,
  { ids, fallback, today }: { ids: readonly string[]; fallback: string; today: string },
): Promise<void> {
  for (const [child, entries] of agenda) {
    const key = `${child}/homework`;
    const list = kept.made.entries[key];
    if (!ids.includes(child) || list === undefined || list.gone) continue;
    const homework = homeworkItems(entries, fallback);
    const items = (kept.made.homework[child] ??= {});
    if (!needsLook(homework, items, today)) continue;
    const entity = list.entity ?? (await kept.api.entityNamed('todo', list.title));
    let listed: HaItem[];
    try {
      if (entity === undefined) throw new HomeAssistantError('server_error', undefined, `no to-do entity named "${list.title}"`);
      listed = await kept.api.items(entity);
    } catch (error) {
      await listGone(kept, key, list, error);
      continue;
    }
    if (list.entity === undefined) kept.remember(key, { ...list, entity });
    for (const step of todoSteps(homework, items, listed, today)) {
      await takeStep(kept, entity, items, step);
      await kept.save();
    }
  }
}

/** One step of a list (homework.ts todoSteps), and what the bridge keeps of its item. */
async function takeStep(kept: Kept, entity: string, items: Record<string, KeptItem>, step: TodoStep): Promise<void> {
  const target = { entity_id: entity };
  if (step.do === 'add') {
    const { summary, description, due } = step.written;
    await kept.api.todo('add_item', { ...target, item: summary, due_date: due, ...(description === null ? {} : { description }) });
    items[step.uid] = { ...step.written, item: null };
  } else if (step.do === 'update') {
    const { summary, description, due } = step.written;
    await kept.api.todo('update_item', { ...target, item: step.item, rename: summary, due_date: due, description });
    items[step.uid] = { ...(items[step.uid] as KeptItem), ...step.written };
  } else if (step.do === 'remove') {
    await kept.api.todo('remove_item', { ...target, item: [step.item] });
    delete items[step.uid];
  } else if (step.do === 'found') items[step.uid] = { ...(items[step.uid] ?? (step.written as Written)), item: step.item };
  else (items[step.uid] as KeptItem).gone = true;
}

/**
 * A list whose items could not be read: gone when Home Assistant no longer lists its entry (deleted by
 * the family: remembered); else the failure stands. A service call on a missing entity answers an error.
 */
async function listGone(kept: Kept, key: string, list: Known, error: unknown): Promise<void> {
  if (!(error instanceof HomeAssistantError) || error.fault !== 'server_error' || list.entry === null) throw error;
  if ((await kept.api.entries()).some((e) => e.entry_id === list.entry)) throw error;
  kept.remember(key, { ...list, gone: true });
  await kept.save();
  kept.log.info({ title: list.title }, 'removed from Home Assistant by the family: not made again');
}
