// Builds the messaging client (session, gateway, messaging session, typed API) against a running
// simulator with a fake clock.
import { MessagingClient } from '../../../../src/portal/messaging.js';
import { MessagesApi } from '../../../../src/portal/messaging-api.js';
import { silentLogger } from '../../../../src/util/log.js';
import { portalClient, type ClientOptions } from '../../../helpers/portal.js';

export function messagingClient(options: ClientOptions & { timeoutMs?: number }) {
  const { session, gateway } = portalClient(options);
  const client = new MessagingClient({
    session,
    urls: options.sim.urls,
    account: options.login,
    clock: options.clock,
    log: silentLogger(),
    timeoutMs: options.timeoutMs,
  });
  return { session, gateway, client, api: new MessagesApi(client, options.login) };
}
