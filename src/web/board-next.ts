// The news a card tells beside the messages and grades: the changes of the next school day's plan (a
// cancellation, a substitution, a room change, a lesson moved), with that day named, and the unread
// announcements by their titles, newest first. Read leniently from the published states.
import type { BoardText } from '../i18n/board-text.js';
import type { Received } from '../feature-kit/contract.js';
import type { timetableTomorrow } from '../features/timetable/entities.js';
import type { unreadNotices } from '../features/notices/notices.js';
import { CHANGES } from './board-day.js';
import type { ChangeKind } from '../school/plan-changes.js';
import { addDays } from '../util/time.js';
import { dayShort, list, num, str, weekday, type BoardMoment } from './board-read.js';

type DayState = Received<typeof timetableTomorrow>;

/** One change of the next school day's plan, as a line of the news. */
export interface BoardNextChange {
  /** "jutro", "pon. 23.11": the day, named on each line. */
  day: string;
  no: number | null;
  /** When it was to start (a lesson moved away: the slot it leaves); a room change's new room after it ("11:50 · s. 4"). */
  time: string | null;
  subject: string | null;
  change: ChangeKind;
  /** "odwołana", "zastępstwo · zamiast: Matematyka", "przeniesiona na czw. 26.11, lekcja 7". */
  note: string;
}

export interface BoardNextChanges {
  date: string;
  /** "Zmiany planu: jutro, czw. 19.11", "Zmiany planu: pon. 23.11". */
  title: string;
  items: BoardNextChange[];
}

/** An unread announcement by its title. */
export interface BoardNotice {
  title: string;
  /** "dziś", "pon. 16.11"; null when the day is unknown. */
  when: string | null;
}

/**
 * The next school day's changed lessons (timetable_tomorrow), each with its change in words as the timetable said
 * it; none when that day is not after today or is the day the plan column shows already (after today's lessons),
 * where the changes stand in the plan itself. A room change says the new room after its hour.
 */
export function nextChangesOf(state: DayState | undefined, shownDate: string | null, clock: BoardMoment, text: BoardText): BoardNextChanges | null {
  const date = str(state?.attributes?.date);
  if (date === null || date <= clock.today || date === shownDate) return null;
  const day = dayShort(date, clock, text);
  const items = list(state?.attributes?.lessons).flatMap((l): BoardNextChange[] => {
    const change = CHANGES.find((k) => k === l.change);
    const note = str(l.note);
    if (change === undefined || note === null) return [];
    const [from, room] = [str(l.from), str(l.room)];
    const time = change === 'room_change' && room !== null ? [from, text.room(room)].filter((t) => t !== null).join(' · ') : from;
    return [{ day, no: num(l.no), time, subject: str(l.subject) ?? str(l.original_subject), change, note }];
  });
  if (items.length === 0) return null;
  // The day by its name and date, short: three cards side by side leave a heading one line.
  const named =
    date === addDays(clock.today, 1) ? `${text.tomorrow.toLowerCase()}, ${weekday(date, text, true)} ${date.slice(8, 10)}.${date.slice(5, 7)}` : day;
  return { date, title: `${text.labels.planChanges}: ${named}`, items };
}

/** The unread announcements the bridge lists (the newest few), newest first. */
export function noticesOf(state: Received<typeof unreadNotices> | undefined, clock: BoardMoment, text: BoardText): BoardNotice[] {
  return list(state?.attributes?.notices).flatMap((n) => {
    const title = str(n.subject);
    if (title === null) return [];
    const date = str(n.date);
    return [{ title, when: date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date) ? null : dayShort(date, clock, text) }];
  });
}
