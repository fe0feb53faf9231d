// What changed between two reads of a portal list, told by its records' ids: what the change feed
// would have named (live-notes 31), for the change feed's count of what it missed.
/** The ids of a list's records ("Grades:123"), from the arrays of records with an Id a response holds. */
function recordIds(value: unknown): Set<string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let ids: Set<string> | undefined;
  for (const [name, list] of Object.entries(value)) {
    if (!Array.isArray(list)) continue;
    for (const record of list as unknown[]) {
      const id = typeof record === 'object' && record !== null ? (record as { Id?: unknown }).Id : undefined;
      if (typeof id === 'string' || typeof id === 'number') (ids ??= new Set()).add(`${name}:${id}`);
    }
  }
  return ids;
}

/**
 * Whether a record appeared in a list or went from it between two reads: what the change feed would have
 * named. A list without record ids (a plan, the lucky number) tells nothing here. An edit in place is
 * not counted: it cannot be told apart from fields rewritten without a change a parent would call one
 * (the simulated school's dates move with the day), and a false count tells a family its feed is not to
 * be trusted.
 */
export function recordsCameOrWent(before: unknown, after: unknown): boolean {
  const was = recordIds(before);
  const is = recordIds(after);
  if (was === undefined && is === undefined) return false;
  if (was === undefined || is === undefined || was.size !== is.size) return true;
  for (const id of is) if (!was.has(id)) return true;
  return false;
}
