// What arrives on the bridge's command and request topics: each goes to its router, and the outcome is
// published (not retained) on the matching result or response topic. A retained one is refused with an
// error and cleared from the broker, so that it is neither carried out nor replayed to anyone.
import type { IClientPublishOptions, IPublishPacket } from 'mqtt';
import type { Topics } from './topics.js';
import type { Logger } from '../../util/log.js';
import type { BridgeResponse, CommandResult, CommandRouter, RequestRouter } from './commands.js';

const TRANSIENT: IClientPublishOptions = { qos: 1, retain: false };
/** An empty retained message deletes the one the broker keeps on that topic. */
const DELETE_RETAINED: IClientPublishOptions = { qos: 1, retain: true };

/** The error of a retained command's result (interface 11.2). */
export const RETAINED_COMMAND = 'retained commands are not carried out';
export const RETAINED_REQUEST = 'retained requests are not carried out';

export interface InboxOptions {
  topics: Topics;
  router: CommandRouter;
  requests: RequestRouter;
  log: Logger;
  /** Publishes in the bridge's turn (delivery.ts `send`); false when there is no client. Nothing is answered once the bridge stopped. */
  publish: (topic: string, payload: string, options: IClientPublishOptions, answered: (err: Error | undefined) => void) => boolean;
  stopped: () => boolean;
}

export class Inbox {
  /**
   * Deletions the bridge published whose empty echo has not come back yet, by topic. Not reset on a
   * reconnect: mqtt.js sends a deletion again after one, and its echo comes then.
   */
  private readonly deleting = new Map<string, number>();

  constructor(private readonly options: InboxOptions) {}

  /** A message on a command or bridge request topic (anything else is not the inbox's). */
  handle(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const { topics } = this.options;
    // Before the command filter, which also matches `<base>/bridge/request/set`.
    const request = topics.parseBridgeRequest(topic);
    const target = request === undefined ? topics.parseCommandSet(topic) : undefined;
    if (request === undefined && target === undefined) return;
    // An empty message that deletes a retained one is never a command. Under MQTT 5 it keeps its retain
    // flag; under 3.1.1 the broker clears the flag on live delivery, so the echo of the bridge's own
    // deletion is known by its topic (an empty `message_topic` or `refresh` is a command otherwise).
    if (payload.length === 0 && (this.echoed(topic) || packet.retain)) return;
    // The bridge subscribes with MQTT 5's retain-as-published, so the flag is set on a retained command
    // delivered live as well as on one the broker replays at connect. MQTT 3.1.1 sets it on replays only.
    if (request !== undefined) {
      if (!packet.retain) this.onRequest(request, payload);
      else
        this.refuse('bridge request', topic, topics.bridgeResponse(request), this.options.requests.refusal(payload, RETAINED_REQUEST), { request });
    } else if (target !== undefined) {
      const { child, command } = target;
      if (!packet.retain) this.onCommand(child, command, payload);
      else
        this.refuse('command', topic, topics.commandResult(child, command), this.options.router.refusal(command, payload, RETAINED_COMMAND), {
          child,
          command,
        });
    }
  }

  private echoed(topic: string): boolean {
    const pending = this.deleting.get(topic);
    if (pending === undefined) return false;
    if (pending > 1) this.deleting.set(topic, pending - 1);
    else this.deleting.delete(topic);
    return true;
  }

  /**
   * Not carried out: a retained command would run again at every connect (a `send` once a day, say), and
   * it would sit on the broker for every other client to replay, so it is deleted there too. One line
   * in the log, and the error on the result topic, where the sender waits for the outcome.
   */
  private refuse(
    kind: 'command' | 'bridge request',
    topic: string,
    answerTopic: string,
    answer: CommandResult | BridgeResponse,
    what: Record<string, string>,
  ): void {
    const { log } = this.options;
    log.warn(what, `refused a retained ${kind} and deleted it from the broker: publish ${kind}s without retain`);
    this.answer(answerTopic, answer);
    if (this.options.stopped()) return;
    this.deleting.set(topic, (this.deleting.get(topic) ?? 0) + 1);
    const sent = this.options.publish(topic, '', DELETE_RETAINED, (err) => {
      if (!err) return;
      this.echoed(topic);
      log.warn({ err: err.message, topic }, `a retained ${kind} could not be deleted from the broker`);
    });
    if (!sent) this.echoed(topic);
  }

  private onCommand(child: string, command: string, payload: Buffer): void {
    const { log, topics } = this.options;
    void this.options.router
      .handle(child, command, payload)
      .then((result) => {
        log.info({ child, command, status: result.status, error: result.error }, 'command');
        this.answer(topics.commandResult(child, command), result);
      })
      .catch((err: unknown) => log.error({ err }, 'publishing a command result failed'));
  }

  private onRequest(name: string, payload: Buffer): void {
    void this.options.requests.handle(name, payload).then((response) => {
      this.options.log.info({ request: name, status: response.status, error: response.error }, 'bridge request');
      this.answer(this.options.topics.bridgeResponse(name), response);
    });
  }

  private answer(topic: string, answer: CommandResult | BridgeResponse): void {
    if (this.options.stopped()) return;
    this.options.publish(topic, JSON.stringify(answer), TRANSIENT, (err) => {
      if (err) this.options.log.warn({ err: err.message, topic }, 'result not delivered');
    });
  }
}
