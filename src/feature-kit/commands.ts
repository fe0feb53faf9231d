// What a command is, for the features that answer one and the router that delivers it: the request as
// received on `<base>/<child>/<command>/set`, the handler's shape, and the refusal a user may read.

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
