// A configured fixed message made ready to send: placeholders filled from the child's identity, the
// body as HTML (escaped, line breaks as <br>), topic and content as base64 of UTF-8 (spec 4.8).
import { wallTime } from '../../util/time.js';
import type { FixedMessage } from '../../config/schema.js';
import type { Identity } from '../../engine/identity.js';

export type Placeholder = 'first_name' | 'last_name' | 'class' | 'date';

const PLACEHOLDER = /\{(first_name|last_name|class|date)\}/g;

/**
 * The values of the placeholders. {date} is today in Warsaw written the Polish way, DD.MM.YYYY,
 * because the reader is a teacher; a value that is not known (no class yet) is undefined.
 */
function placeholderValues(identity: Identity, now: number): Record<Placeholder, string | undefined> {
  const known = (value: string | undefined): string | undefined => value?.trim() || undefined;
  return { first_name: known(identity.firstName), last_name: known(identity.lastName), class: known(identity.className), date: polishDate(now) };
}

/** DD.MM.YYYY of the Warsaw calendar day of an instant. */
export function polishDate(ms: number): string {
  const [year, month, day] = wallTime(ms).date.split('-');
  return `${day}.${month}.${year}`;
}

/** Fills the known placeholders; any other {text} stays as written. Reports used ones without a value. */
export function fillPlaceholders(template: string, values: Record<Placeholder, string | undefined>): { text: string; missing: Placeholder[] } {
  const missing = new Set<Placeholder>();
  const text = template.replace(PLACEHOLDER, (whole, name: Placeholder) => {
    const value = values[name];
    if (value === undefined) missing.add(name);
    return value ?? whole;
  });
  return { text, missing: [...missing] };
}

/** Plain text as the HTML body the portal expects: escaped, every line break a <br>. */
export function textToHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\r\n|\r|\n/g, '<br>');
}

export function base64Utf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function composeMessage(message: Pick<FixedMessage, 'topic' | 'body'>, identity: Identity, now: number) {
  const values = placeholderValues(identity, now);
  const topic = fillPlaceholders(message.topic, values);
  const body = fillPlaceholders(message.body, values);
  return {
    /** The topic as the teacher will read it (one line). */
    topic: topic.text.replace(/\s+/g, ' ').trim(),
    /** The body as plain text, placeholders filled. */
    text: body.text,
    /** The body as sent (HTML). */
    html: textToHtml(body.text),
    /** Placeholders used in the message whose value is not known: such a message is not sent. */
    missing: [...new Set([...topic.missing, ...body.missing])],
  };
}

/** The POST /messages body (spec 4.8) for one receiver. */
export function sendBody(accountId: string, message: { topic: string; html: string }): Record<string, unknown> {
  return {
    receivers: { schoolReceivers: [{ accountId }] },
    topic: base64Utf8(message.topic),
    content: base64Utf8(message.html),
    storageId: null,
    category: 'normal',
  };
}
