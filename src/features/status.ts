// The status feature, present for every child: last_update and problem (the runner and its health
// give their states) and the refresh button, which polls every tier at once.
import { binary, sensor } from '../feature-kit/entities.js';
import { feature } from './feature.js';

/** The keys the runner itself publishes (the rest of a child's states come from feature polls). */
export const LAST_UPDATE = 'last_update';
export const PROBLEM = 'problem';

/** Diagnostics stay readable while the child is offline: they follow the bridge's availability only. */
const diagnostic = { entityCategory: 'diagnostic', bridgeAvailabilityOnly: true } as const;

export const status = feature({
  name: 'status',
  entities: [
    sensor(LAST_UPDATE, { en: 'Last update', pl: 'Ostatnia aktualizacja' }, { deviceClass: 'timestamp', attributes: false, ...diagnostic }),
    binary(PROBLEM, { en: 'Problem', pl: 'Problem' }, { deviceClass: 'problem', attributes: true, ...diagnostic }),
    {
      key: 'refresh',
      platform: 'button',
      name: { en: 'Refresh', pl: 'Odśwież' },
      icon: 'mdi:refresh',
      command: { key: 'refresh', payload: 'refresh' },
    },
  ],
  create: () => ({}),
  commands: {
    refresh: async (_req, account) => {
      await account.refresh();
      return {};
    },
  },
});

