// The streaks feature (interface 16.3): the good-grades streak, the school days without an absence and
// without a negative note -> streaks, and an achievement event the first time this school year a run reaches
// one of its counts (rules.ts). It asks the portal nothing: it reads what the grades, attendance and notes
// features computed from their own reads. Its screens: a badge on the board's card for an achievement of
// the last 7 days, and the runs and the year's achievements in the child's own dashboard view.
import { ACHIEVEMENT_KINDS, achievementEvents, streaks as streaksOf, type Achievement, type AchievementPayload, type Streaks } from './rules.js';
import { yearStart } from '../../once/rollover.js';
import { ATTENDANCES } from '../../engine/resources/school.js';
import { NOTES } from '../notes/resources.js';
import { GRADES } from '../../engine/resources/grades.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { feature } from '../feature.js';
import { shape, statesOf, type Events, type PublishedAs } from '../kit/contract.js';
import { ifKnown, markdown, whileOn } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { list, num, str } from '../screens/shown.js';
import { FEATURE_TEXT } from '../../i18n/feature-text.js';
import { addDays } from '../../util/time.js';
import type { Language } from '../../config/language.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { ShownChild, BoardPart, Card } from '../screens/parts.js';
import type { ChildEntities } from '../screens/child-entities.js';
import type { DashboardText } from '../../i18n/dashboard-text.js';
import { textCompare } from '../../rules/order.js';
import { streaksAsk, type StreaksAsk } from './ask.js';

/**
 * The attributes of streaks. A run the account cannot have is left out (a kindergarten has no grades,
 * so no `good_grades`); `achievements` are this school year's, the newest first.
 */
export type StreaksFacts = {
  good_grades?: number;
  days_without_absence?: number;
  days_without_negative_note?: number;
  achievements: Achievement[];
};

export const streaksEntity = sensor(
  'streaks',
  { en: 'Streaks', pl: 'Serie', uk: 'Серії' },
  {
    icon: 'mdi:trophy',
    stateClass: 'measurement',
    attributes: shape<StreaksFacts>(),
    module: [GRADES, ATTENDANCES, NOTES],
    state: (streaks: Streaks) => renderStreaks(streaks),
  },
);

/** An achievement unlocked: once per school year each, never one already true at the first start. */
export const achievementEvent = eventEntity('achievement', { en: 'Achievement', pl: 'Osiągnięcie', uk: 'Досягнення' }, 'mdi:trophy', {
  payload: shape<AchievementPayload>(),
  module: [GRADES, ATTENDANCES, NOTES],
});

/** How many days an achievement stays on the board's card: the day it came and the six before today. */
export const BADGE_DAYS = 7;

export const streaksFeature = feature({
  name: 'streaks',
  inputs: ['grades', 'attendance', 'notes'],
  // A run of school days moves with the day, not only with the lists.
  everyPass: true,
  entities: [streaksEntity, achievementEvent],
  ask: streaksAsk,
  board: (child) => streaksBoard(child),
  dashboard: {
    // The runs and the year's achievements: a school child's under the grades while its streak has a value; a
    // kindergarten child's (no grades, so never a streak's value) beside the absences while the sensor is there.
    child: [
      { section: 'grades', block: (e, t) => (e.preschool ? undefined : ifKnown(e, streaksEntity, () => streaksCard(e, t))) },
      {
        section: 'notesAbsences',
        block: (e, t) => (e.preschool && e.has(streaksEntity) ? whileOn(e.id(streaksEntity), streaksCard(e, t)) : undefined),
      },
    ],
  },
  create: (access) => new StreaksSource(access.language),
});

const streaksCard = (e: ChildEntities, t: DashboardText): Card =>
  markdown(
    e,
    t,
    'features/streaks/streaks',
    keyed(streaksEntity, 'good_grades', 'days_without_absence', 'days_without_negative_note', 'achievements'),
  );

/** What the runs are computed from; each undefined until first known, null where the account has none. */
interface Known {
  grades?: Parameters<typeof streaksOf>[0]['grades'];
  attendance?: { days: readonly string[]; absences: readonly string[] } | null;
  notes?: readonly string[] | null;
}

class StreaksSource implements Source {
  private readonly known: Known = {};

  constructor(private readonly language: Language) {}

  compute(ctx: SourceContext): Promise<SourceResult> {
    const { grades, attendance, notes } = ctx.inputs;
    // A list not read this time leaves what was last known of it; one the portal refuses is none.
    if (grades?.ordinary !== undefined) this.known.grades = grades.ordinary;
    if (attendance !== undefined)
      this.known.attendance = { days: attendance.days, absences: attendance.absences.flatMap((a) => (a.date === null ? [] : [a.date])) };
    else if (ctx.cache.refused(ATTENDANCES)) this.known.attendance = null;
    if (notes !== undefined) this.known.notes = notes.negative;
    else if (ctx.cache.refused(NOTES)) this.known.notes = null;
    const { grades: g, attendance: a, notes: n } = this.known;
    // Until each list is known, a run would be counted short and an achievement already true would look
    // new: nothing is computed, and the memory of the events is not primed with half the truth.
    if (g === undefined || a === undefined || n === undefined) return Promise.resolve({});
    const start = yearStart(ctx.today, ctx.identity.schoolYearBegin);
    const value = streaksOf({
      grades: g,
      markedDays: a?.days ?? null,
      absenceDays: a?.absences ?? [],
      negativeNoteDays: n,
      yearStart: start,
      today: ctx.today,
    });
    return Promise.resolve({
      states: statesOf([streaksEntity], value),
      ask: { daysWithoutNegativeNote: value.daysWithoutNegativeNote } satisfies StreaksAsk,
      events: { achievement: achievementEvents(value, start) } satisfies Events<typeof achievementEvent>,
    });
  }
}

/** streaks: the good-grades streak (unknown for an account without grades), the other runs and the achievements beside. */
export function renderStreaks(s: Streaks): PublishedAs<StreaksFacts> {
  const facts: StreaksFacts = {
    ...(s.goodGrades === null ? {} : { good_grades: s.goodGrades }),
    ...(s.daysWithoutAbsence === null ? {} : { days_without_absence: s.daysWithoutAbsence }),
    ...(s.daysWithoutNegativeNote === null ? {} : { days_without_negative_note: s.daysWithoutNegativeNote }),
    achievements: [...s.achievements].reverse(),
  };
  return withAttributes(s.goodGrades, facts);
}

/** An achievement in words: "10 dobrych ocen z rzędu", "Pierwsza szóstka". */
export function achievementWords(a: Pick<Achievement, 'kind' | 'count'>, language: Language): { label: string; value: string } {
  const words = FEATURE_TEXT[language].streaks;
  switch (a.kind) {
    case 'first_six':
      return { label: words.firstSix, value: '6' };
    case 'good_grades':
      return { label: words.goodGrades, value: String(a.count) };
    case 'no_absence':
      return { label: words.noAbsence, value: String(a.count) };
    case 'no_negative_note':
      return { label: words.noNegativeNote, value: String(a.count) };
  }
}

/** The newest achievement of the last BADGE_DAYS days as a badge beside the child's name (of one day, the greatest). */
const streaksBoard: BoardPart = ({ state, language, clock }: ShownChild) => {
  const since = addDays(clock.today, 1 - BADGE_DAYS);
  const recent = list(state(streaksEntity)?.attributes?.achievements).flatMap((a) => {
    const [kind, count, date] = [str(a.kind), num(a.count), str(a.date)];
    const known = ACHIEVEMENT_KINDS.find((k) => k === kind);
    return known === undefined || count === null || date === null || date < since || date > clock.today ? [] : [{ kind: known, count, date }];
  });
  const newest = recent.sort((x, y) => textCompare(y.date, x.date) || y.count - x.count)[0];
  if (newest === undefined) return null;
  const { label, value } = achievementWords(newest, language);
  return { facts: [{ look: 'badge', label, value, mark: FEATURE_TEXT[language].streaks.bravo }] };
};
