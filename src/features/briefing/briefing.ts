// The briefing feature, no request of its own (it computes at every pass): after the timetable, the agenda and the lucky
// number, it says what a parent wants to hear about the next school day (src/school/briefing.ts for
// the facts, src/i18n/briefing-text.ts for the words). At every pass, so that the day it is about moves
// on a few minutes after the lessons end, and a new lucky number shows soon.
import { sensor } from '../../feature-kit/entities.js';
import { shape, type States } from '../../feature-kit/contract.js';
import type { SourceContext, SourceResult } from '../../feature-kit/source.js';
import type { Language } from '../../config/language.js';
import { briefing } from '../../school/briefing.js';
import { BRIEFING_TEXT, type BriefingKind } from '../../i18n/briefing-text.js';
import { feature } from '../feature.js';
import { markdown } from '../../screens/cards.js';
import { keyed } from '../../screens/templates.js';
import { str } from '../../screens/shown.js';

export type BriefingFacts = {
  /** The whole briefing as it reads aloud (tts.speak, a voice answer). */
  text: string;
  /** The day it is about (YYYY-MM-DD); null when no school day is ahead. */
  day: string | null;
};

export const briefingEntity = sensor(
  'briefing',
  { en: 'Briefing', pl: 'Zapowiedź dnia', uk: 'Огляд дня' },
  { icon: 'mdi:account-voice', attributes: shape<BriefingFacts>() },
);

export const briefingFeature = feature({
  name: 'briefing',
  inputs: ['timetable', 'agenda', 'lucky'],
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
  create: (access) => ({ poll: (ctx) => poll(ctx, access.language) }),
});

function poll(ctx: SourceContext, language: Language): Promise<SourceResult> {
  const timetable = ctx.inputs.timetable;
  // Before the timetable's first good read there is nothing to say (not "no lessons").
  if (timetable === undefined) return Promise.resolve({ states: {} });
  // A timetable that covers no day (Timetables refused, or never answered) says nothing of lessons: unknown, not "no lessons".
  if (!timetable.fortnight.some((d) => d.lessons !== undefined)) return Promise.resolve({ states: { briefing: { state: null, attributes: {} } } });
  const agenda = ctx.inputs.agenda;
  const facts = briefing({
    now: ctx.now,
    today: ctx.today,
    days: timetable.fortnight,
    tests: agenda?.tests ?? [],
    homework: agenda?.homework ?? [],
    lucky: ctx.inputs.lucky,
    registerNumber: ctx.identity.registerNumber,
  });
  return Promise.resolve({ states: renderBriefing(facts, language, timetable.kind) });
}

export function renderBriefing(facts: ReturnType<typeof briefing>, language: Language, kind?: BriefingKind): States<typeof briefingEntity> {
  const words = BRIEFING_TEXT[language](facts, kind);
  return { briefing: { state: words.state, attributes: { text: words.text, day: facts?.day ?? null } } };
}
