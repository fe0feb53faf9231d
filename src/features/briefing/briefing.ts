// The briefing feature, no request of its own (it computes at every pass): after the timetable, the agenda, the lucky
// number and the grades (the proposals of the week, from their one list), it says what a parent wants to hear about the day the screens are about (the timetable's dayShown, its slots
// as published; rules.ts for the rest of the facts, src/i18n/briefing-text.ts for the words). At every
// pass, so that the day it is about moves on a few minutes after the lessons end, and a new lucky number shows soon.
import { sensor } from '../kit/entities.js';
import { shape, statesOf, type Worded } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import type { Language } from '../../config/language.js';
import { briefing, type BriefingInput } from './rules.js';
import { hoursOf } from '../../rules/schedule.js';
import { dayShown, timetableOf } from '../timetable/day.js';
import { BRIEFING_TEXT, type BriefingKind } from '../../i18n/briefing-text.js';
import { feature } from '../feature.js';
import { markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { clockAt, str } from '../screens/shown.js';

/**
 * The attributes of briefing: the whole briefing as it reads aloud (tts.speak, a voice answer), the day it is about
 * (YYYY-MM-DD; null when no school day is ahead).
 */
export type BriefingFacts = { text: string; day: string | null };

/** What the briefing says, of the day it is about, for a school or a kindergarten; null when the timetable covers no day. */
export type BriefingView = { facts: ReturnType<typeof briefing>; kind?: BriefingKind } | null;

export const briefingEntity = sensor(
  'briefing',
  { en: 'Briefing', pl: 'Zapowiedź dnia', uk: 'Огляд дня' },
  {
    icon: 'mdi:account-voice',
    attributes: shape<BriefingFacts>(),
    // A timetable that covers no day says nothing of lessons: unknown, not "no lessons".
    state: ({ view, language }: Worded<BriefingView>) => {
      if (view === null) return { state: null, attributes: {} };
      const words = BRIEFING_TEXT[language](view.facts, view.kind);
      return { state: words.state, attributes: { text: words.text, day: view.facts?.day ?? null } };
    },
  },
);

export const briefingFeature = feature({
  name: 'briefing',
  inputs: ['timetable', 'agenda', 'lucky', 'grades'],
  everyPass: true,
  entities: [briefingEntity],
  // The next school day in a sentence, under the child's name on the board and where a parent looks first on the dashboard.
  board: ({ state }) => ({ briefing: str(state(briefingEntity)?.state) }),
  dashboard: {
    family: [
      {
        at: 'lead',
        block: (e, t) =>
          e.has(briefingEntity) ? markdown(e, t, 'features/briefing/briefing', keyed(briefingEntity), { text_only: true }, []) : undefined,
      },
    ],
  },
  create: (access) => ({ compute: (ctx) => compute(ctx, access.language) }),
});

function compute(ctx: SourceContext, language: Language): Promise<SourceResult> {
  const timetable = ctx.inputs.timetable;
  // Before the timetable's first good read there is nothing to say (not "no lessons").
  if (timetable === undefined) return Promise.resolve({});
  // A timetable that covers no day (Timetables refused, or never answered) says nothing of lessons.
  if (!timetable.fortnight.some((d) => d.lessons !== undefined))
    return Promise.resolve({ states: statesOf([briefingEntity], { view: null, language }) });
  const agenda = ctx.inputs.agenda;
  const known = {
    tests: agenda?.tests ?? [],
    homework: agenda?.homework ?? [],
    lucky: ctx.inputs.lucky,
    terms: ctx.inputs.grades?.terms ?? [],
  };
  const facts = briefingAt({ ...known, now: ctx.now, nextSchoolDay: timetable.nextSchoolDay, days: timetable.fortnight }, language);
  return Promise.resolve({ states: renderBriefing(facts, language, timetable.kind) });
}

/**
 * The briefing's facts at `now`: the day the screens are about (the timetable's dayShown, from this and next week's
 * days), its slots as timetable_* publishes them (their changes and words in `language`), and what else is due then.
 */
export function briefingAt(input: Omit<BriefingInput, 'day' | 'today'> & { now: number; nextSchoolDay: string | null }, language: Language) {
  const clock = clockAt(input.now);
  const dayOf = (date: string | null) => {
    const day = input.days.find((d) => d.date === date);
    return day && { date: day.date, to: hoursOf(day)?.to ?? null, day };
  };
  const shown = dayShown(clock, dayOf(clock.today), dayOf(input.nextSchoolDay));
  return briefing({ ...input, today: clock.today, day: shown && { ...timetableOf(shown.day, language).attributes, date: shown.date } });
}

/** briefing, as its declaration says the facts. */
export function renderBriefing(facts: ReturnType<typeof briefing>, language: Language, kind?: BriefingKind) {
  return statesOf([briefingEntity], { view: { facts, kind }, language });
}
