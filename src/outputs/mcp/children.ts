// Which children a call names (interface 17.1): by the id, the first name, the full name, a common diminutive of the
// first name (diminutives.ts) or a unique beginning of any of them; a call that names none is for every child. A name
// two children answer to is refused with their names, never guessed.
import type { ChildView } from '../web/types.js';
import { loose } from '../../features/screens/ask.js';
import { MCP_TEXT, type McpText } from '../../i18n/mcp-text.js';
import { AskRefusal } from '../../features/screens/ask.js';
import { namesOf } from './diminutives.js';

/** What a refusal or an error quotes of what it was given, at most: a 100 KB argument is not sent back whole. */
export const QUOTED = 40;

/** The child's first name as the board says it (the device's name's first word), else its id. */
export const firstName = (c: ChildView): string => (c.name ?? c.id).split(/\s+/)[0] ?? c.id;

/** Every name a child answers to, loosely: its id, its full name, its first name and that name's forms. */
function namesFor(c: ChildView): string[] {
  return [loose(c.id), loose(c.name ?? c.id), ...namesOf(firstName(c))];
}

/** The children `given` names (all of them when it names none), in the bridge's order; a refusal names those there are. */
export function childrenNamed(given: string | undefined, children: readonly ChildView[], w: McpText): ChildView[] {
  if (children.length === 0) throw new AskRefusal(w.noChildren);
  if (given === undefined || given.trim() === '') return [...children];
  const listed = children.map((c) => `${firstName(c)} (${c.id})`);
  const wanted = loose(given);
  const quoted = given.trim().slice(0, QUOTED);
  const same = children.filter((c) => namesFor(c).includes(wanted));
  const found = same.length > 0 ? same : children.filter((c) => namesFor(c).some((n) => n.startsWith(wanted)));
  if (found.length === 1) return found;
  if (found.length === 0) throw new AskRefusal(w.noSuchChild(quoted, listed));
  throw new AskRefusal(
    w.ambiguousChild(
      quoted,
      found.map((c) => `${firstName(c)} (${c.id})`),
    ),
  );
}

/** The one child a call that acts (open_message, send_message) names; with several children, one must be named. */
export function oneChild(given: string | undefined, children: readonly ChildView[], language: keyof typeof MCP_TEXT): ChildView {
  const w = MCP_TEXT[language];
  const found = childrenNamed(given, children, w);
  if (found.length > 1) throw new AskRefusal(w.whichChild(found.map((c) => `${firstName(c)} (${c.id})`)));
  return found[0] as ChildView;
}

/**
 * The children Assist knows: those the snapshot holds, and each configured one it holds nothing of yet (a first start's
 * first pass under way), by its id, so that the tools' descriptions name the family from the first answer after a start.
 */
export function knownChildren(shown: readonly ChildView[], ids: readonly (string | undefined)[]): ChildView[] {
  const held = new Set(shown.map((c) => c.id));
  const waiting = [...new Set(ids)].filter((id): id is string => id !== undefined && !held.has(id));
  return [...shown, ...waiting.map((id) => ({ id, name: null, model: null, online: false, states: new Map(), changedAt: 0 }))];
}
