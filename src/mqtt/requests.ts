// Bridge requests as zigbee2mqtt has them: `<base>/bridge/request/<name>` answered on
// `<base>/bridge/response/<name>` with `{"status":"ok","data":...}` or `{"status":"error","error":...}`,
// the request's `transaction` echoed. Unknown names and bad payloads get an error and change nothing.
import { CommandError } from '../feature-kit/commands.js';
import { readPayload, scalarField } from '../feature-kit/payload.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

export interface BridgeRequest {
  /** The JSON object of the payload, without `transaction`; empty for a payload that is not JSON. */
  fields: Record<string, unknown>;
  transaction?: string | number;
}

/** Resolves to the `data` of the answer; rejects with CommandError for an error the user should read. */
export type RequestHandler = (req: BridgeRequest) => Promise<Record<string, unknown>>;

export interface BridgeResponse {
  status: 'ok' | 'error';
  data?: Record<string, unknown>;
  error?: string;
  transaction?: string | number;
}

export class RequestRouter {
  private readonly handlers = new Map<string, RequestHandler>();

  constructor(private readonly options: { log: Logger }) {}

  register(name: string, handler: RequestHandler): void {
    if (this.handlers.has(name)) throw new Error(`bridge request "${name}" is already registered`);
    this.handlers.set(name, handler);
  }

  /** Never rejects: every outcome is an answer. */
  async handle(name: string, payload: Buffer): Promise<BridgeResponse> {
    const parsed = parse(payload);
    if ('error' in parsed) return answer({ status: 'error', error: parsed.error }, parsed.transaction);
    const handler = this.handlers.get(name);
    if (!handler)
      return answer({ status: 'error', error: `unknown request "${name}" (known: ${[...this.handlers.keys()].join(', ')})` }, parsed.transaction);
    try {
      return answer({ status: 'ok', data: await handler(parsed) }, parsed.transaction);
    } catch (err) {
      if (err instanceof CommandError) return answer({ status: 'error', error: err.message }, parsed.transaction);
      this.options.log.error({ err: errorText(err), request: name }, 'bridge request failed');
      return answer({ status: 'error', error: 'internal error' }, parsed.transaction);
    }
  }

  /** The error answer of a request turned away before its handler (a retained one), with its transaction when readable. */
  refusal(payload: Buffer, error: string): BridgeResponse {
    return answer({ status: 'error', error }, parse(payload).transaction);
  }
}

/** Anything that is not a JSON object counts as an empty request (`refresh` may be sent as plain text). */
function parse(payload: Buffer): BridgeRequest | { error: string; transaction?: string | number } {
  const read = readPayload(payload);
  if (read.error !== undefined) return { error: read.error };
  if (read.json === undefined) return { fields: {} };
  const { transaction, ...fields } = read.json;
  const tx = scalarField(transaction);
  if (transaction !== undefined && tx === undefined) return { error: '"transaction" must be a string or a number' };
  return { fields, transaction: tx };
}

function answer(response: BridgeResponse, transaction: string | number | undefined): BridgeResponse {
  return transaction === undefined ? response : { ...response, transaction };
}
