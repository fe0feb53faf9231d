// The family board's view model: what the wall tablet shows for each child, each box given by the feature
// that owns it (Feature.board) from the states the bridge last published (ChildView.states, exactly the MQTT
// payloads) and the time. Pure: no I/O; it names no feature.
import { BOARD_TEXT } from '../../i18n/board-text.js';
import type { Language } from '../../config/language.js';
import { FEATURES } from '../../features/index.js';
import { type BoardBoxes, type ShownChild, shownChild } from '../../features/screens/parts.js';
import { calendarFeedLinks } from './board-calendars.js';
import type { ChildView } from './types.js';
import { oneLine } from '../../util/text.js';

export type * from '../../features/screens/parts.js';

/** One child's card: its boxes, its id and name, the device's model line (`className`, e.g. "Klasa 4b") and its calendar feeds. */
export type BoardChild = ReturnType<typeof childBoard>;

export type BoardModel = ReturnType<typeof boardModel>;

/** The board for every child the bridge holds, at `now`. */
export function boardModel(children: readonly ChildView[], language: Language, now: number) {
  // Always in the same places: the bridge learns its children in whatever order their first passes end.
  const sorted = [...children].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const names = callNames(sorted);
  return { language, labels: BOARD_TEXT[language].labels, children: sorted.map((c, i) => childBoard(c, names[i] as string, language, now)) };
}

/**
 * The names a family calls its children by across the room: the first names, unless two children
 * share one (then the full names); the id until the first identity.
 */
function callNames(children: readonly ChildView[]): string[] {
  // One line each, whatever the portal or a file in data_dir held.
  const full = children.map((c) => oneLine(c.name ?? c.id));
  const first = full.map((n) => n.split(/\s+/)[0] || n);
  return first.every((n, i) => first.indexOf(n) === i) ? first : full;
}

/** A card with no feature's part: no box but the school's, whose lines the features give. */
const EMPTY: BoardBoxes = {
  facts: [],
  headline: null,
  briefing: null,
  day: null,
  nextChanges: null,
  standing: null,
  notices: [],
  homework: null,
  tests: null,
  agenda: [],
  grades: null,
  proposals: [],
  messages: null,
  school: {},
  warning: null,
  updated: null,
};

/** The features' parts of one card: a list box gathers every feature's items in the features' order, the school's box their lines. */
function boxesOf(shown: ShownChild): BoardBoxes {
  const boxes: BoardBoxes = { ...EMPTY, school: {} };
  for (const part of FEATURES.map((f) => f.board?.(shown))) {
    for (const [key, value] of Object.entries(part ?? {}) as [keyof BoardBoxes, unknown][]) {
      const had = boxes[key];
      const merged = Array.isArray(had) ? [...had, ...(value as unknown[])] : key === 'school' ? { ...boxes.school, ...(value as object) } : value;
      Object.assign(boxes, { [key]: merged });
    }
  }
  return boxes;
}

function childBoard(child: ChildView, name: string, language: Language, now: number) {
  const boxes = boxesOf(shownChild(child.states, language, now, child.online));
  // The child's calendar feeds, without the token (the page adds it and the host).
  return { id: child.id, name, className: child.model, ...boxes, calendarFeeds: calendarFeedLinks(child, name, language) };
}
