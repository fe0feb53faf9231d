// What an account hands its features: the portal, the outbox every send goes through, the child as the
// account knows it now, and the account's settings with their defaults filled in.
import { FALLBACK_LANGUAGE } from '../config/language.js';
import { DEFAULT_GRADE_THRESHOLDS } from '../config/schema.js';
import { Outbox } from '../messaging/guard.js';
import type { FeatureAccess } from '../features/feature.js';
import type { Logger } from '../util/log.js';
import type { AccountPollerOptions } from './account-options.js';
import type { AccountChild } from './child.js';
import type { PortalAccess } from './portal-access.js';

export interface FeatureAccessDeps {
  options: AccountPollerOptions;
  access: PortalAccess;
  child: AccountChild;
  log: Logger;
}

export function featureAccess({ options, access, child, log }: FeatureAccessDeps): FeatureAccess {
  const { account, dataDir, clock } = options;
  const { messages, cache } = access;
  const outbox = new Outbox({
    account: account.login,
    child: () => child.id,
    api: messages,
    dataDir,
    clock,
    log,
    messagesPerDay: options.messagesPerDay,
  });
  return {
    account,
    cache,
    messages,
    outbox,
    downloads: () => access.downloads(child.id),
    identity: () => child.identity,
    childId: () => child.id,
    language: options.language ?? FALLBACK_LANGUAGE,
    dataDir,
    thresholds: options.thresholds ?? DEFAULT_GRADE_THRESHOLDS,
    clock,
    log,
  };
}
