// The JSON payloads of reply/set and write/set, checked field by field: a wrong field is an error
// result that names it, and nothing is sent.
import { CommandError, type CommandRequest } from '../feature-kit/commands.js';
import { readPayload, scalarField } from '../feature-kit/payload.js';

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
