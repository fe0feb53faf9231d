// What the status feature publishes: last_update and problem (the runner and its health give their states),
// the account's figures (requests and logins of the day, the last successful read, the session's age: the
// runner's figures give them) and the refresh button. The feature and its screens: status.ts.
import { binary, button, sensor } from '../kit/entities.js';
import { shape } from '../kit/contract.js';
import { onOff } from '../kit/render.js';
import { isoWarsaw } from '../../util/time.js';
import type { LoginAdvice } from '../../portal/session.js';

/** Diagnostics stay readable while the child is offline: they follow the bridge's availability only. */
const diagnostic = { entityCategory: 'diagnostic', bridgeAvailabilityOnly: true } as const;

/**
 * The attributes of problem: why the register cannot be read (null when it can), the advice in the
 * configured language, since when, and for a paused login when it is tried again.
 */
export type ProblemFacts = {
  reason: string | null;
  /** Why, in the configured language; undefined (left out of the published attributes) while OFF. */
  message: string | undefined;
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

/** What `problem` publishes: ON with why, or OFF, with the facts always (problem.ts). */
export type ProblemState = { state: 'ON' | 'OFF'; attributes: ProblemFacts };

/** The account's figures of the day as the diagnostic entities show them (figures.ts). */
export interface FiguresView {
  /** The requests of the day by resource (ids masked). */
  requests: Record<string, number>;
  bootstraps: number;
  logins: number;
  failedLogins: number;
  /** How the last password login ended (`ok` or a problem reason); null before any. */
  lastLogin: string | null;
  /** When a read last succeeded; null before any. */
  lastRead: number | null;
  /** The session's age in minutes; null without a session. */
  sessionMinutes: number | null;
}

/**
 * What the runner's own entities show after a pass or a failed read: the account's figures, the problem as the
 * health tells it (with its road and since), whether the portal advises changing the password, and when the last
 * pass ended (undefined after a failed read: last_update stays).
 */
export interface StatusView {
  figures: FiguresView;
  problem: ProblemState;
  advised: boolean;
  updated?: number;
}

/** The requests of the day by resource (ids masked), and the messaging bootstraps among them. */
export type RequestsFacts = { resources: Record<string, number>; bootstraps: number };
/** The password logins of the day that failed, and how the last one ended (`ok` or a problem reason). */
export type LoginsFacts = { failed: number; last_outcome: string | null };

/** Noisy diagnostics (a new state every pass): added switched off, as Home Assistant asks of such entities. */
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
    state: ({ figures }: StatusView) => ({
      state: String(Object.values(figures.requests).reduce((sum, n) => sum + n, 0)),
      attributes: { resources: { ...figures.requests }, bootstraps: figures.bootstraps },
    }),
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
    state: ({ figures }: StatusView) => ({
      state: String(figures.logins),
      attributes: { failed: figures.failedLogins, last_outcome: figures.lastLogin },
    }),
  },
);
export const lastRead = sensor(
  'last_read',
  { en: 'Last successful read', pl: 'Ostatni udany odczyt', uk: 'Останнє успішне читання' },
  {
    deviceClass: 'timestamp',
    attributes: false,
    ...noisy,
    state: ({ figures }: StatusView) => ({ state: figures.lastRead === null ? null : isoWarsaw(figures.lastRead) }),
  },
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
    state: ({ figures }: StatusView) => ({ state: figures.sessionMinutes === null ? null : String(figures.sessionMinutes) }),
  },
);

/** The entities the runner itself publishes (the rest of a child's states come from feature passes). */
export const lastUpdate = sensor(
  'last_update',
  { en: 'Last update', pl: 'Ostatnia aktualizacja', uk: 'Останнє оновлення' },
  {
    deviceClass: 'timestamp',
    attributes: false,
    ...diagnostic,
    state: ({ updated }: StatusView) => (updated === undefined ? undefined : { state: isoWarsaw(updated) }),
  },
);
export const problem = binary(
  'problem',
  { en: 'Problem', pl: 'Problem', uk: 'Проблема' },
  {
    deviceClass: 'problem',
    attributes: shape<ProblemFacts>(),
    ...diagnostic,
    // The health's answer, as it tells it (runner/health.ts): ON with why, OFF, or unknown before the first read.
    state: (view: StatusView) => view.problem,
  },
);
/**
 * The portal's advice to change the password as a state (ON while the last login met it): what the
 * Bridge view's advice card is shown by, as Home Assistant's cards can test a state, never an attribute.
 */
export const passwordChangeAdvised = binary(
  'password_change_advised',
  { en: 'Password change advised', pl: 'Zalecana zmiana hasła', uk: 'Радять змінити пароль' },
  { icon: 'mdi:key-alert', ...diagnostic, state: ({ advised }: StatusView) => onOff(advised) },
);
export const refresh = button(
  'refresh',
  { en: 'Refresh', pl: 'Odśwież', uk: 'Оновити' },
  { icon: 'mdi:refresh', command: { key: 'refresh', payload: 'refresh' } },
);
