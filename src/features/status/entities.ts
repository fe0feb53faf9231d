// What the status feature publishes: last_update and problem (the runner and its health give their states),
// the account's figures (requests and logins of the day, the last successful read, the session's age: the
// runner's figures give them) and the refresh button. The feature and its screens: status.ts.
import { binary, button, sensor } from '../kit/entities.js';
import { shape } from '../kit/contract.js';
import type { LoginAdvice } from '../../portal/session.js';

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
  advice?: LoginAdvice;
  /** That advice in the configured language. */
  advice_message?: string;
  /** A child on both roads (its login, and an `email` entry): the one it is read through now. */
  road?: 'register' | 'family';
};

/** The requests of the day by resource (ids masked), and the messaging bootstraps among them. */
export type RequestsFacts = { resources: Record<string, number>; bootstraps: number };
/** The password logins of the day that failed, and how the last one ended (`ok` or a problem reason). */
export type LoginsFacts = { failed: number; last_outcome: string | null };

/** Noisy diagnostics (a new state every poll): added switched off, as Home Assistant asks of such entities. */
const noisy = { ...diagnostic, enabledByDefault: false } as const;

/** The runner's figures of the account (interface 9.2): they cost no portal request. */
export const requestsToday = sensor(
  'requests_today',
  { en: 'Portal requests today', pl: 'Zapytania do portalu dziś', uk: 'Запити до порталу сьогодні' },
  {
    icon: 'mdi:counter',
    stateClass: 'measurement',
    attributes: shape<RequestsFacts>(),
    ...noisy,
  },
);
export const loginsToday = sensor(
  'logins_today',
  { en: 'Password logins today', pl: 'Logowania hasłem dziś', uk: 'Входи з паролем сьогодні' },
  {
    icon: 'mdi:login',
    stateClass: 'measurement',
    attributes: shape<LoginsFacts>(),
    ...diagnostic,
  },
);
export const lastRead = sensor(
  'last_read',
  { en: 'Last successful read', pl: 'Ostatni udany odczyt', uk: 'Останнє успішне читання' },
  { deviceClass: 'timestamp', attributes: false, ...noisy },
);
export const sessionAge = sensor(
  'session_age',
  { en: 'Session age', pl: 'Wiek sesji', uk: 'Вік сесії' },
  {
    deviceClass: 'duration',
    unit: 'min',
    stateClass: 'measurement',
    attributes: false,
    ...noisy,
  },
);

/** The entities the runner itself publishes (the rest of a child's states come from feature polls). */
export const lastUpdate = sensor(
  'last_update',
  { en: 'Last update', pl: 'Ostatnia aktualizacja', uk: 'Останнє оновлення' },
  { deviceClass: 'timestamp', attributes: false, ...diagnostic },
);
export const problem = binary(
  'problem',
  { en: 'Problem', pl: 'Problem', uk: 'Проблема' },
  { deviceClass: 'problem', attributes: shape<ProblemFacts>(), ...diagnostic },
);
/**
 * The portal's advice to change the password as a state (ON while the last login met it): what the
 * Bridge view's advice card is shown by, as Home Assistant's cards can test a state, never an attribute.
 */
export const passwordChangeAdvised = binary(
  'password_change_advised',
  { en: 'Password change advised', pl: 'Zalecana zmiana hasła', uk: 'Радять змінити пароль' },
  { icon: 'mdi:key-alert', ...diagnostic },
);
export const refresh = button(
  'refresh',
  { en: 'Refresh', pl: 'Odśwież', uk: 'Оновити' },
  { icon: 'mdi:refresh', command: { key: 'refresh', payload: 'refresh' } },
);
