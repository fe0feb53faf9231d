// The diagnostics' next reads: for each row, when the scheduler reads it again and why then.
import type { Known, PlanClock, PlanRow } from './plan.js';

/** One read the scheduler has planned: the row, when, and why then. */
export interface NextRead {
  row: string;
  at: number;
  why: 'age' | 'signal' | 'refusal_ends' | 'retry';
}

/** Why a copy is read when it is: a refusal that ends, a failed read's retry, a moved signal, or its age. */
export function whyDue(known: Known, now: number): NextRead['why'] {
  if (known.refusedUntil !== undefined && now < known.refusedUntil) return 'refusal_ends';
  if (known.failed) return 'retry';
  if (known.signal === 'changed') return 'signal';
  return 'age';
}

export const dropClock = ([row, , known]: [PlanRow, PlanClock, Known]): [PlanRow, Known] => [row, known];

