// Turning what a school rule says into what Home Assistant shows: ON/OFF, a state within 255
// characters, a number as text, attributes under the recorder's limit. Features render with these;
// school/ never does.
import { capAttributes } from './attributes.js';

/** Home Assistant rejects states longer than 255 characters. */
const MAX_STATE_LENGTH = 255;

/** A binary sensor's state. */
export function onOff(on: boolean): { state: 'ON' | 'OFF' } {
  return { state: on ? 'ON' : 'OFF' };
}

/** A text fit for a state: cut to 255 characters with an ellipsis; null stays unknown. */
export function stateText(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.length <= MAX_STATE_LENGTH ? text : `${text.slice(0, MAX_STATE_LENGTH - 1)}…`;
}

/**
 * A sensor's state and attributes, the attributes kept under the recorder's limit. They keep their
 * declared names: capAttributes only shortens lists and texts (and says so in `truncated`).
 */
export function withAttributes<A extends Record<string, unknown>>(
  state: string | number | null,
  attributes: A,
): { state: string | null; attributes: A } {
  return { state: state === null ? null : String(state), attributes: capAttributes(attributes) as A };
}
