// Telling reads apart: a record counts as missing only from two distinct successful reads, and the
// resource cache hands the same answer back while it is young (or after a failure, its last good copy).
// Each answer object gets a mark of its own; a process's marks never equal an earlier process's.
import { randomBytes } from 'node:crypto';

const marks = new WeakMap<object, string>();
const processMark = randomBytes(4).toString('hex');
let counter = 0;

/** The mark of one answer as read (undefined when it was not read: refused, switched off, absent). */
export function readMark(answer: object | undefined): string | undefined {
  if (answer === undefined) return undefined;
  if (!marks.has(answer)) marks.set(answer, `${processMark}-${++counter}`);
  return marks.get(answer);
}
