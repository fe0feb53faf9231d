// The status feature, present for every child: last_update and problem (the runner and its health
// give their states) and the refresh button, which polls every tier at once.
import { binary, button, sensor } from '../feature-kit/entities.js';
import { feature } from './feature.js';
import { shape } from '../feature-kit/contract.js';

/** Diagnostics stay readable while the child is offline: they follow the bridge's availability only. */
const diagnostic = { entityCategory: 'diagnostic', bridgeAvailabilityOnly: true } as const;

/**
 * The attributes of problem: why the register cannot be read (null when it can), the advice in the
 * configured language, since when, and for a paused login when it is tried again.
 */
export type ProblemFacts = {
  reason: string | null;
  message?: string;
  since?: string;
  retry_at?: string;
  detail?: string;
  /** A refused login: the portal's own words. */
  portal_message?: string;
  /** An answer nobody has seen yet: the resource it came from, for a family's report. */
  resource?: string;
  /** The portal advises changing the password (the bridge skipped it); shown even while OFF. */
  advice?: 'password_change_advised';
  /** That advice in the configured language. */
  advice_message?: string;
  /** A child on both roads (its login, and an `email` entry): the one it is read through now. */
  road?: 'register' | 'family';
};

/** The entities the runner itself publishes (the rest of a child's states come from feature polls). */
export const lastUpdate = sensor('last_update', { en: 'Last update', pl: 'Ostatnia aktualizacja', uk: 'Останнє оновлення' }, { deviceClass: 'timestamp', attributes: false, ...diagnostic });
export const problem = binary('problem', { en: 'Problem', pl: 'Problem', uk: 'Проблема' }, { deviceClass: 'problem', attributes: shape<ProblemFacts>(), ...diagnostic });
export const refresh = button('refresh', { en: 'Refresh', pl: 'Odśwież', uk: 'Оновити' }, 'mdi:refresh', { key: 'refresh', payload: 'refresh' });

export const status = feature({
  name: 'status',
  entities: [lastUpdate, problem, refresh],
  create: () => ({}),
  // A refresh inside the minute after the last forced poll waits for the minute to end; a message
  // sent meanwhile must not wait behind it.
  concurrent: ['refresh'],
  commands: {
    refresh: async (_req, account) => {
      await account.refresh();
      return {};
    },
  },
});

