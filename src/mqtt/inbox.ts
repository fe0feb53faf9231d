// What arrives on the bridge's command and request topics: each goes to its router, and the outcome is
// published (not retained) on the matching result or response topic. Retained ones are ignored.
import type { IClientPublishOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { Topics } from '../ha/topics.js';
import type { Logger } from '../util/log.js';
import type { CommandRouter } from './commands.js';
import type { RequestRouter } from './requests.js';

const TRANSIENT: IClientPublishOptions = { qos: 1, retain: false };

export interface InboxOptions {
  topics: Topics;
  router: CommandRouter;
  requests: RequestRouter;
  log: Logger;
  /** The connected client, if any; nothing is answered once the bridge stopped. */
  client: () => MqttClient | undefined;
  stopped: () => boolean;
}

export class Inbox {
  constructor(private readonly options: InboxOptions) {}

  /** A message on a command or bridge request topic (anything else is not the inbox's). */
  handle(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const { topics, log } = this.options;
    // Before the command filter, which also matches `<base>/bridge/request/set`.
    const request = topics.parseBridgeRequest(topic);
    if (request !== undefined) {
      this.onRequest(request, payload, packet);
      return;
    }
    const target = topics.parseCommandSet(topic);
    if (!target) return;
    if (packet.retain) {
      // Running a retained command on every connect would, for example, send a message again.
      log.warn({ topic }, 'ignoring a retained command');
      return;
    }
    void this.options.router
      .handle(target.child, target.command, payload)
      .then((result) => {
        log.info({ child: target.child, command: target.command, status: result.status, error: result.error }, 'command');
        if (this.options.stopped()) return;
        const resultTopic = topics.commandResult(target.child, target.command);
        this.options.client()?.publish(resultTopic, JSON.stringify(result), TRANSIENT, (err) => {
          if (err) log.warn({ err, topic: resultTopic }, 'command result not delivered');
        });
      })
      .catch((err: unknown) => log.error({ err }, 'publishing a command result failed'));
  }

  private onRequest(name: string, payload: Buffer, packet: IPublishPacket): void {
    const { log } = this.options;
    if (packet.retain) {
      // A retained request would be carried out again on every connect.
      log.warn({ request: name }, 'ignoring a retained bridge request');
      return;
    }
    void this.options.requests.handle(name, payload).then((response) => {
      log.info({ request: name, status: response.status, error: response.error }, 'bridge request');
      if (this.options.stopped()) return;
      const topic = this.options.topics.bridgeResponse(name);
      this.options.client()?.publish(topic, JSON.stringify(response), TRANSIENT, (err) => {
        if (err) log.warn({ err: err.message, topic }, 'bridge response not delivered');
      });
    });
  }
}
