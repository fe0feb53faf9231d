// What a command is, for the features that answer one and the router that delivers it: the request as
// received on `<base>/<child>/<command>/set`, the handler's shape, and the refusal a user may read. What
// arrives on a command or request topic is at most 1 KB of UTF-8 text, either plain text or one JSON
// object; anything else is refused before a handler sees it. The JSON payloads of reply/set and write/set
// are checked field by field: a wrong field is an error result that names it, and nothing is sent.

export interface CommandRequest {
  child: string;
  command: string;
  /** The payload as received. */
  payload: Buffer;
  /** The payload as trimmed UTF-8 text. */
  text: string;
  /** The argument: the `id` of a JSON object payload (`{"id": ..., "transaction": ...}`), else `text`. */
  arg: string;
  /** The `transaction` of a JSON object payload, echoed in the result. */
  transaction?: string;
}

/** Resolves to extra fields for the result; rejects with CommandError for a result the user should read. */
export type CommandHandler = (req: CommandRequest) => Promise<Record<string, unknown>>;

/** A refusal whose message is safe to publish in the result (no secrets, no payload echo). */
export class CommandError extends Error {
  override readonly name = 'CommandError';

  /** Extra fields for the error result (e.g. `sent: false` of a refused send). */
  get fields(): Record<string, unknown> {
    return {};
  }
}

const MAX_PAYLOAD_BYTES = 1024;
/** Commands that carry a message's text (reply, write): 4,000 characters, escaped, fit. */
export const MAX_TEXT_PAYLOAD_BYTES = 32 * 1024;

/** The trimmed text, and the JSON object when the text starts with `{`. */
export function readPayload(payload: Buffer, maxBytes = MAX_PAYLOAD_BYTES) {
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

/** The payload's JSON object; plain text is refused (the fields say what is what). */
export function jsonObject(req: CommandRequest, example: string): Record<string, unknown> {
  const read = readPayload(req.payload, Number.MAX_SAFE_INTEGER);
  if (read.error !== undefined || read.json === undefined) throw new CommandError(`the payload must be a JSON object like ${example}`);
  return read.json;
}

/** A string field (absent: undefined); numbers are taken as their text (ids). */
export function textField(json: Record<string, unknown>, name: string): string | undefined {
  const value = json[name];
  if (value === undefined || value === null) return undefined;
  const scalar = scalarField(value);
  if (scalar === undefined) throw new CommandError(`"${name}" must be a string`);
  return String(scalar);
}
