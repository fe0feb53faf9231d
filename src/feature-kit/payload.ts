// What arrives on a command or request topic: at most 1 KB of UTF-8 text, either plain text or one JSON
// object. Anything else is refused before a handler sees it.

const MAX_PAYLOAD_BYTES = 1024;
/** Commands that carry a message's text (reply, write): 4,000 characters, escaped, fit. */
export const MAX_TEXT_PAYLOAD_BYTES = 32 * 1024;

export type Payload =
  | { text: string; json?: undefined; error?: undefined }
  | { text: string; json: Record<string, unknown>; error?: undefined }
  | { error: string };

/** The trimmed text, and the JSON object when the text starts with `{`. */
export function readPayload(payload: Buffer, maxBytes = MAX_PAYLOAD_BYTES): Payload {
  if (payload.length > maxBytes) return { error: `payload over ${maxBytes} bytes` };
  const raw = payload.toString('utf8');
  if (!Buffer.from(raw, 'utf8').equals(payload)) return { error: 'payload is not UTF-8 text' };
  const text = raw.trim();
  if (!text.startsWith('{')) return { text };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'payload is not valid JSON' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { error: 'payload is not a JSON object' };
  return { text, json: json as Record<string, unknown> };
}

/** A JSON string or finite number, as given; undefined for anything else. */
export function scalarField(value: unknown): string | number | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}
