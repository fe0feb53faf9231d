// Home Assistant's WebSocket API, as its core serves it (homeassistant/components/websocket_api): the server
// speaks first (`auth_required`), the client answers `{type: auth, access_token}`, the server says `auth_ok`
// (or `auth_invalid` and closes); then each command is `{id, type, ...}` with a fresh id, answered by
// `{id, type: result, success, result | error: {code, message}}`. The frames are undici's WebSocket; every
// wait has a deadline, and `close()` (or the stop's signal) abandons whatever is in flight.
import { WebSocket } from 'undici';
import { HomeAssistantError, type HomeAssistantApiOptions } from '../client.js';
import type { HaFault } from '../../../i18n/homeassistant-text.js';
import { redactAndCut } from '../../../util/redact.js';
import { errorText, parsedJson } from '../../../util/text.js';

/**
 * As the REST API's (client.ts), but `url` is the WebSocket's address (ws:// or wss://), `timeoutMs` bounds connecting,
 * authenticating and each command, `onCall` is told of every command sent, and the signal closes the connection.
 */
export type HaSocketOptions = Pick<HomeAssistantApiOptions, 'url' | 'token' | 'timeoutMs' | 'onCall' | 'signal'>;

/** Home Assistant's own words in a refusal, the token masked before anything is cut. */
export function saidByHomeAssistant(text: string, token: string): string {
  return redactAndCut(token.length > 0 ? text.replaceAll(token, '…') : text, 200);
}

/** Home Assistant's address as the bridge reaches its REST API, turned to its WebSocket's. */
export function socketUrl(url: string): string {
  const base = url.replace(/\/+$/, '');
  // Inside the app the Supervisor proxies Home Assistant's WebSocket at /core/websocket, not /core/api/websocket.
  if (/^https?:\/\/supervisor\/core$/.test(base)) return 'ws://supervisor/core/websocket';
  return `${base.replace(/^http/, 'ws')}/api/websocket`;
}

type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** One authenticated connection; `call` sends a command and resolves with its result. */
export class HaSocket {
  private next = 1;
  private readonly waiting = new Map<number, Waiter>();
  private ended: HomeAssistantError | undefined;
  /** Closes the connection when the stop's signal aborts (removed once it is closed). */
  private readonly abandon = (): void => this.close();

  private constructor(
    private readonly socket: WebSocket,
    private readonly options: HaSocketOptions,
  ) {}

  /** Connects and authenticates: an unauthorized token, an address that does not answer, each its own fault. */
  static open(options: HaSocketOptions): Promise<HaSocket> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    return new Promise<HaSocket>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new HomeAssistantError('unreachable', undefined, `WebSocket ${options.url}: abandoned, the bridge stops`));
        return;
      }
      let socket: WebSocket;
      try {
        socket = new WebSocket(options.url);
      } catch (error) {
        reject(new HomeAssistantError('unreachable', undefined, `WebSocket ${options.url}: ${errorText(error)}`));
        return;
      }
      const client = new HaSocket(socket, options);
      let settled = false;
      const fail = (fault: HaFault, why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.close();
        reject(new HomeAssistantError(fault, undefined, `WebSocket ${options.url}: ${saidByHomeAssistant(why, options.token)}`));
      };
      const timer = setTimeout(() => fail('unreachable', 'no answer in time'), timeoutMs);
      options.signal?.addEventListener('abort', client.abandon, { once: true });
      socket.addEventListener('error', (event) => fail('unreachable', errorText((event as { error?: unknown }).error ?? 'connection failed')));
      socket.addEventListener('close', (event) => {
        fail('unreachable', `closed (${event.code})`);
        client.closed(`closed (${event.code})`);
      });
      socket.addEventListener('message', (event) => {
        const message = parsedJson(typeof event.data === 'string' ? event.data : '') as { type?: unknown; message?: unknown } | undefined;
        if (settled) {
          client.answered(message);
          return;
        }
        if (message?.type === 'auth_required') socket.send(JSON.stringify({ type: 'auth', access_token: options.token }));
        else if (message?.type === 'auth_ok') {
          settled = true;
          clearTimeout(timer);
          resolve(client);
        } else if (message?.type === 'auth_invalid') fail('unauthorized', `the token is refused (${String(message.message ?? '')})`);
        else fail('server_error', 'an answer of an unexpected shape before authentication');
      });
    });
  }

  /** A command (its type and fields); resolves with its result, or fails with Home Assistant's error. */
  call(command: { type: string } & Record<string, unknown>): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.next++;
    this.options.onCall?.();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new HomeAssistantError('unreachable', undefined, `${command.type}: no answer in time`));
      }, this.options.timeoutMs ?? 30_000);
      this.waiting.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.send(JSON.stringify({ ...command, id }));
    });
  }

  /** Ends the connection; what is in flight fails at once (abandoned, not awaited). */
  close(): void {
    this.closed('closed by the bridge');
    this.socket.close();
  }

  private closed(why: string): void {
    this.options.signal?.removeEventListener('abort', this.abandon);
    this.ended ??= new HomeAssistantError('unreachable', undefined, `WebSocket: ${why}`);
    for (const waiter of this.waiting.values()) waiter.reject(this.ended);
    this.waiting.clear();
  }

  private answered(message: unknown): void {
    const answer = message as { id?: unknown; type?: unknown; success?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (answer?.type !== 'result' || typeof answer.id !== 'number') return;
    const waiter = this.waiting.get(answer.id);
    if (waiter === undefined) return;
    this.waiting.delete(answer.id);
    if (answer.success === true) waiter.resolve(answer.result);
    else {
      const code = String(answer.error?.code ?? 'error');
      const fault: HaFault =
        code === 'unauthorized' ? 'unauthorized' : code === 'unknown_command' || code === 'invalid_format' ? 'refused' : 'server_error';
      const said = saidByHomeAssistant(String(answer.error?.message ?? ''), this.options.token);
      waiter.reject(new HomeAssistantError(fault, undefined, `${code}${said ? ` (${said})` : ''}`));
    }
  }
}
