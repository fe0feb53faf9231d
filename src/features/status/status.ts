// The status feature, present for every child: last_update and problem, the account's figures and the refresh
// button, which reads every resource at once (entities.ts). Its screens: the board card's warning and last
// update, the problem over the family view's column, and the child's rows of the diagnostics view.
import { feature } from '../feature.js';
import { nightEndsAt } from '../../engine/moments.js';
import { HOUR } from '../../util/duration.js';
import { buttonRow, ifOn, markdown, whileOn, type Card } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import type { BoardPart, BoardWarning, Block, ShownChild } from '../screens/parts.js';
import { lastUpdate as isoOf, str, when } from '../screens/shown.js';
import { lastRead, lastUpdate, loginsToday, passwordChangeAdvised, problem, refresh, requestsToday, sessionAge } from './entities.js';

export * from './entities.js';

/** How old the last update may be in the bridge's waking time: by day it reads every few minutes, at night (moments.ts) nothing. */
const STALE_MS = HOUR;

/** Offline beats a problem, which beats old data: the sign names the cause when it is known. */
function warningOf({ state, online, clock, text }: ShownChild, updated: string | null): BoardWarning | null {
  const lastRead = updated === null ? null : when(updated, clock);
  if (!online && updated !== null) return { kind: 'offline', text: text.offline(lastRead as string), detail: null };
  const trouble = state(problem);
  if (trouble?.state === 'ON') return { kind: 'problem', text: text.problem, detail: str(trouble.attributes?.message) };
  if (updated === null) return { kind: 'waiting', text: text.waiting, detail: null };
  // An hour that runs into the night is an hour after the night.
  const due = (nightEndsAt(Date.parse(updated) + STALE_MS) ?? Date.parse(updated)) + STALE_MS;
  return clock.now > due ? { kind: 'stale', text: text.stale(lastRead as string), detail: null } : null;
}

/** The card's warning, when what it shows cannot be trusted as current, and the time of the last update. */
const statusBoard: BoardPart = (child) => {
  const updated = isoOf(child.state(lastUpdate));
  return { warning: warningOf(child, updated), updated: updated === null ? null : child.text.updated(when(updated, child.clock)) };
};

const problemBanner: Block = (e, t) =>
  e.has(problem) ? ifOn(e.id(problem), markdown(e, t, 'features/status/problem', keyed(problem, 'message'), { text_only: true }, [])) : undefined;

/**
 * The portal's advice to change the password (live-notes 19), which `problem` carries while it stays
 * OFF: shown in the bridge view only, as information, for as long as the last login met it
 * (password_change_advised ON); no card at all otherwise.
 */
const passwordAdviceBanner: Block = (e, t) =>
  e.has(problem, passwordChangeAdvised)
    ? ifOn(e.id(passwordChangeAdvised), markdown(e, t, 'features/status/password-advice', keyed(problem, 'advice_message'), { text_only: true }, []))
    : undefined;

/** The bridge's own state for a child: last update, whether the register can be read, password logins today, refresh. */
const diagnostics: Block = (e, t) => {
  const rows: Card[] = [];
  if (e.has(lastUpdate)) rows.push({ entity: e.id(lastUpdate), name: t.lastUpdate });
  if (e.has(problem)) rows.push({ entity: e.id(problem), name: t.problemRow });
  if (e.has(loginsToday)) rows.push({ entity: e.id(loginsToday), name: t.loginsToday });
  // A refresh only reads the portal: no confirmation needed.
  if (e.has(refresh)) rows.push(buttonRow(e.id(refresh), t.refresh, t.refreshAction));
  return rows.length === 0 ? undefined : { type: 'entities', state_color: true, entities: rows };
};

/**
 * The account's noisy figures (interface 9.2): off in Home Assistant until a user turns them on, so
 * each tile shows only while its entity is (a switched-off entity has no state: "unavailable").
 */
const accountFigures: Block = (e, t) => {
  const tiles = (
    [
      [requestsToday, t.requestsToday],
      [lastRead, t.lastRead],
      [sessionAge, t.sessionAge],
    ] as const
  ).flatMap(([entity, name]) => (e.has(entity) ? [whileOn(e.id(entity), { type: 'tile', entity: e.id(entity), name })] : []));
  // One tile a row: their names are long ("Zapytania do portalu dziś"); three a row cut them to "Zapyt…".
  return tiles.length === 0 ? undefined : { type: 'vertical-stack', cards: tiles };
};

/** The status feature's entities: the runner publishes their states after each pass (runner/coordinator.ts publishStatus). */
export const STATUS_ENTITIES = [lastUpdate, problem, passwordChangeAdvised, requestsToday, loginsToday, lastRead, sessionAge, refresh];

export const status = feature({
  name: 'status',
  entities: STATUS_ENTITIES,
  create: () => ({}),
  // A refresh inside the minute after the last forced pass waits for the minute to end; a message
  // sent meanwhile must not wait behind it.
  concurrent: ['refresh'],
  commands: {
    refresh: async (_req, account) => {
      await account.refresh();
      return {};
    },
  },
  board: statusBoard,
  dashboard: {
    family: [{ at: 'alert', block: problemBanner }],
    diagnostics: [problemBanner, passwordAdviceBanner, diagnostics, accountFigures],
  },
});
