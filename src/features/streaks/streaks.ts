// The streaks feature (interfaces 16.3 and 17.2): the good-grades streak, the school days without an absence and
// without a negative note -> streaks, with each achievement kind's progress, and an achievement event the first
// time this school year a count is reached or a thing won (rules.ts). It asks the portal nothing: it reads what
// the grades, attendance, notes, behaviour and lucky features computed from their own reads, and keeps in
// data_dir what those do not give back (record.ts). Its screens: a badge on the board's card for an achievement
// of the last 7 days, and the runs and the year's achievements in the child's own dashboard view.
import {
  ACHIEVEMENT_KINDS,
  achievementEvents,
  shownAchievement,
  streaks as streaksOf,
  type Achievement,
  type AchievementKind,
  type AchievementPayload,
  type Progress,
  type StarSubject,
  type StreakConduct,
  type StreakGrade,
  type Streaks,
} from './rules.js';
import { AchievementRecord } from './record.js';
import { isExemplary } from '../../rules/behaviour.js';
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
import { addDays, warsawTimeOfDay } from '../../util/time.js';
import type { Language } from '../../config/language.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { FeatureAccess } from '../feature.js';
import type { ShownChild, BoardPart, Card } from '../screens/parts.js';
import type { ChildEntities } from '../screens/child-entities.js';
import type { DashboardText } from '../../i18n/dashboard-text.js';
import { textCompare } from '../../rules/order.js';
import { streaksAsk, type StreaksAsk } from './ask.js';

/**
 * The attributes of streaks. A run the account cannot have is left out (a kindergarten has no grades,
 * so no `good_grades`); `achievements` are this school year's, the newest first (`announced` false for one already
 * true when the bridge first read its kind); `progress`, each kind the
 * account has: its count now and the count of its next achievement.
 */
export type StreaksFacts = {
  good_grades?: number;
  days_without_absence?: number;
  days_without_negative_note?: number;
  achievements: ListedAchievement[];
  progress: Partial<Record<AchievementKind, Progress>>;
};

/** One of this year's achievements as the sensor lists it: `announced` false for one already true when the bridge first read its kind (never an event). */
export type ListedAchievement = Achievement & { announced: boolean };

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
  inputs: ['grades', 'attendance', 'notes', 'behaviour', 'lucky'],
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
  create: (access) => new StreaksSource(access),
});

const streaksCard = (e: ChildEntities, t: DashboardText): Card =>
  markdown(e, t, 'features/streaks/streaks', {
    ...keyed(streaksEntity, 'good_grades', 'days_without_absence', 'days_without_negative_note', 'achievements'),
    shown: { list: ACHIEVEMENT_KINDS.map((kind) => ({ kind, how: ACHIEVEMENT_SHOWN[kind] })) },
  });

/** What the runs are computed from; each undefined until first known, null where the account has none. */
interface Known {
  grades?: readonly StreakGrade[] | null;
  standing?: { subjects: StarSubject[]; honours: boolean | null };
  attendance?: { days: readonly string[]; absences: readonly string[]; lates: readonly string[] } | null;
  notes?: { negative: readonly string[]; positive: readonly string[] } | null;
  conduct?: readonly StreakConduct[] | null;
}

class StreaksSource implements Source {
  private readonly known: Known = {};
  private readonly record: AchievementRecord;

  constructor(private readonly access: Pick<FeatureAccess, 'dataDir' | 'account' | 'log' | 'events'>) {
    this.record = new AchievementRecord(access.dataDir, access.account.login, access.log);
  }

  prepare(): Promise<void> {
    return this.record.load();
  }

  async compute(ctx: SourceContext): Promise<SourceResult> {
    const { grades, attendance, notes, behaviour, lucky } = ctx.inputs;
    const known = this.known;
    // A list not read this time leaves what was last known of it; one the portal refuses is none.
    if (grades?.ordinary !== undefined) known.grades = grades.ordinary;
    if (grades?.standing !== undefined) known.standing = grades.standing;
    if (attendance !== undefined)
      known.attendance = {
        days: attendance.days,
        absences: attendance.absences.flatMap((a) => (a.date === null ? [] : [a.date])),
        lates: attendance.lates,
      };
    else if (ctx.cache.refused(ATTENDANCES)) known.attendance = null;
    if (notes !== undefined) known.notes = notes;
    else if (ctx.cache.refused(NOTES)) known.notes = null;
    if (behaviour !== undefined) known.conduct = behaviour && behaviour.marks.map((m) => ({ exemplary: isExemplary(m), date: m.date }));
    const { grades: g, attendance: a, notes: n } = known;
    // The run Assist tells counts days without a negative note: an account the portal refuses the notes has none.
    const noNotes: StreaksAsk | undefined = n === null ? { daysWithoutNegativeNote: null, absent: true } : undefined;
    // Until each list is known, a run would be counted short and an achievement already true would look
    // new: nothing is computed, and neither the record nor the memory of the events is primed with half the truth.
    if (g === undefined || a === undefined || n === undefined) return noNotes === undefined ? {} : { ask: noNotes };
    const start = yearStart(ctx.today, ctx.identity.schoolYearBegin);
    // A record lost while the bridge was stopped: rebuilt from the event memory, before anything is taken as already true.
    this.record.rebuild(start, this.access.events?.known(achievementEvent.key));
    // The lucky number is the child's on its day (one shown a day early counts from that day on).
    if (lucky?.mine === true) this.record.luckyOn(start, lucky.day);
    const record = this.record.of(start);
    const value = streaksOf({
      grades: g,
      markedDays: a?.days ?? null,
      absenceDays: a?.absences ?? [],
      lateDays: a?.lates,
      negativeNoteDays: n?.negative ?? null,
      positiveNoteDays: n?.positive ?? null,
      subjects: known.standing?.subjects,
      honours: known.standing?.honours,
      conduct: known.conduct,
      // A school without the lucky number shows none: no progress toward it.
      luckyDays: lucky !== undefined || record.lucky.length > 0 ? record.lucky : undefined,
      semester1End: ctx.identity.semester1End,
      yearEnd: ctx.identity.schoolYearEnd,
      // The record keeps no `quiet` (take() marks it) and leaves out a subject a kind has none of.
      kept: record.kept.map((a) => ({ ...a, subject: a.subject, quiet: false })),
      yearStart: start,
      today: ctx.today,
      time: warsawTimeOfDay(ctx.now),
    });
    // Every kind is read with the three lists, but exemplary behaviour only once the behaviour grades were read.
    const ready = ACHIEVEMENT_KINDS.filter((k) => k !== 'exemplary_behaviour' || known.conduct !== undefined);
    const { listed } = this.record.take(start, value.achievements, ready);
    await this.record.save();
    return {
      states: statesOf([streaksEntity], { ...value, achievements: listed }),
      ask: noNotes ?? ({ daysWithoutNegativeNote: value.daysWithoutNegativeNote, absent: false } satisfies StreaksAsk),
      // Every one of a kind read, those already true as such: the event memory tells the rest once, and keeps both apart.
      events: {
        achievement: achievementEvents(
          listed.filter((a) => ready.includes(a.kind)),
          start,
        ),
      } satisfies Events<typeof achievementEvent>,
    };
  }
}

/** streaks: the good-grades streak (unknown for an account without grades), the other runs and the achievements beside. */
export function renderStreaks(s: Streaks): PublishedAs<StreaksFacts> {
  const facts: StreaksFacts = {
    ...(s.goodGrades === null ? {} : { good_grades: s.goodGrades }),
    ...(s.daysWithoutAbsence === null ? {} : { days_without_absence: s.daysWithoutAbsence }),
    ...(s.daysWithoutNegativeNote === null ? {} : { days_without_negative_note: s.daysWithoutNegativeNote }),
    achievements: s.achievements.map((a) => ({ ...shownAchievement(a), announced: !a.quiet })).reverse(),
    progress: s.progress,
  };
  return withAttributes(s.goodGrades, facts);
}

/**
 * How an achievement's value goes with its words (FEATURE_TEXT's streaks.kinds): its count after them ("10 dobrych
 * ocen z rzędu"), a count, its subject or its semester before them ("Pochwały: 3", "Gwiazda przedmiotu: Fizyka"), or
 * the words alone ("Pierwsza szóstka"). The dashboard's list reads the same table.
 */
export const ACHIEVEMENT_SHOWN: Readonly<Record<AchievementKind, 'count' | 'after' | 'subject' | 'semester' | 'alone'>> = {
  first_six: 'alone',
  good_grades: 'count',
  no_absence: 'count',
  no_negative_note: 'count',
  sixes: 'count',
  subject_star: 'subject',
  honours: 'alone',
  comeback: 'subject',
  semester_without_one: 'semester',
  full_month: 'after',
  punctual: 'count',
  praise: 'after',
  exemplary_behaviour: 'alone',
  lucky: 'after',
};

/** An achievement in words, as the board's badge shows it: "10" beside "dobrych ocen z rzędu", "Fizyka" beside "Gwiazda przedmiotu". */
export function achievementWords(a: Pick<Achievement, 'kind' | 'count' | 'subject'>, language: Language): { label: string; value: string } {
  const label = FEATURE_TEXT[language].streaks.kinds[a.kind];
  switch (ACHIEVEMENT_SHOWN[a.kind]) {
    case 'count':
    case 'after':
      return { label, value: String(a.count) };
    case 'subject':
      return { label, value: a.subject ?? '' };
    case 'semester':
      return { label, value: 'I'.repeat(a.count) };
    case 'alone':
      return { label, value: a.kind === 'first_six' ? '6' : '★' };
  }
}

/** The newest achievement announced in the last BADGE_DAYS days as a badge beside the child's name (of one day, the greatest). */
const streaksBoard: BoardPart = ({ state, language, clock }: ShownChild) => {
  const since = addDays(clock.today, 1 - BADGE_DAYS);
  const recent = list(state(streaksEntity)?.attributes?.achievements).flatMap((a) => {
    const [kind, count, date, subject] = [str(a.kind), num(a.count), str(a.date), str(a.subject)];
    const known = ACHIEVEMENT_KINDS.find((k) => k === kind);
    // One already true when the bridge first read its kind was never told: no badge celebrates it.
    return known === undefined || count === null || date === null || date < since || date > clock.today || a.announced === false
      ? []
      : [{ kind: known, count, date, subject: subject ?? undefined }];
  });
  const newest = recent.sort((x, y) => textCompare(y.date, x.date) || y.count - x.count)[0];
  if (newest === undefined) return null;
  const { label, value } = achievementWords(newest, language);
  return { facts: [{ look: 'badge', label, value, mark: FEATURE_TEXT[language].streaks.bravo }] };
};
