// The behaviour feature: the formal behaviour grade (spec 2.4) -> behaviour and a
// behaviour_grade event per new entry. It asks the portal nothing of its own: the grades feature reads
// BehaviourGrades/Points hourly with its lookups and hands them over as its output.
import {
  behaviour as behaviourRule,
  behaviourEvents,
  behaviourMarks,
  type Behaviour,
  type BehaviourMark,
  type BehaviourPayload,
} from '../../rules/behaviour.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { stateText, withAttributes } from '../kit/render.js';
import { BEHAVIOUR_WORDS } from '../../i18n/school-words.js';
import { feature } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { str } from '../screens/shown.js';
import { shape, statesOf, type Events, type PublishedAs, type Worded } from '../kit/contract.js';
import type { Language } from '../../config/language.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { BEHAVIOUR_POINTS } from '../../engine/resources/grades.js';
import { behaviourAsk, type BehaviourAsk } from './ask.js';

/** One formal grade as published: the school rule's mark without its category. */
export type BehaviourMarkFacts = Omit<BehaviourMark, 'category'>;

/** The attributes of behaviour (behaviourFacts). */
export type BehaviourFacts = ReturnType<typeof behaviourFacts>;

// Named ...Entity: the school rule is called behaviour.
export const behaviourEntity = sensor(
  'behaviour',
  { en: 'Behaviour', pl: 'Zachowanie', uk: 'Поведінка' },
  {
    icon: 'mdi:account-star',
    attributes: shape<BehaviourFacts>(),
    module: [BEHAVIOUR_POINTS],
    // Refused (null): unknown, whatever an earlier read showed.
    state: ({ view, language }: Worded<Behaviour | null>) => (view === null ? { state: null, attributes: {} } : renderBehaviour(view, language)),
  },
);

/** A new behaviour entry: a grade or its proposal, or a points school's entry (never a `grade` event). */
export const behaviourEvent = eventEntity(
  'behaviour_grade',
  { en: 'Behaviour grade', pl: 'Ocena z zachowania', uk: 'Оцінка з поведінки' },
  'mdi:account-star',
  { payload: shape<BehaviourPayload>(), module: [BEHAVIOUR_POINTS] },
);

/** What the streaks read: the year's classic grades and proposals, newest first; null while the portal refuses them. */
export type BehaviourOutput = null | { marks: BehaviourMark[] };

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    behaviour: BehaviourOutput;
  }
}

export const behaviourFeature = feature({
  name: 'behaviour',
  inputs: ['grades'],
  entities: [behaviourEntity, behaviourEvent],
  ask: behaviourAsk,
  board: ({ state }) => ({ school: { behaviour: str(state(behaviourEntity)?.state) } }),
  dashboard: {
    // The newest formal behaviour grade (or a points school's points), with the semester's and the year's; no box before there is one.
    child: [
      {
        section: 'notesAbsences',
        block: (e, t) =>
          e.preschool
            ? undefined
            : ifKnown(e, behaviourEntity, () =>
                markdown(e, t, 'features/behaviour/behaviour', keyed(behaviourEntity, 'semester_grade', 'final_grade')),
              ),
      },
    ],
  },
  create: (access) => ({ compute: (ctx) => compute(ctx, access.language) }),
});

function compute(ctx: SourceContext, language: Language): Promise<SourceResult> {
  const read = ctx.inputs.grades?.behaviour;
  // Refused: unknown, whatever an earlier read showed. Not read this time (grades failed): the last state stays.
  if (read === null)
    return Promise.resolve({
      states: statesOf([behaviourEntity], { view: null, language }),
      ask: { view: null, absent: true } satisfies BehaviourAsk,
      output: null satisfies BehaviourOutput,
    });
  if (read === undefined) return Promise.resolve({});
  const input = { ...read, today: ctx.today, endFirstSemester: ctx.identity.semester1End };
  const view = behaviourRule(input);
  return Promise.resolve({
    states: statesOf([behaviourEntity], { view, language }),
    ask: { view, absent: false } satisfies BehaviourAsk,
    events: { behaviour_grade: behaviourEvents(input) } satisfies Events<typeof behaviourEvent>,
    output: { marks: behaviourMarks(input) } satisfies BehaviourOutput,
  });
}

const markFacts = (m: BehaviourMark | null): BehaviourMarkFacts | null =>
  m === null
    ? null
    : { grade: m.grade, short: m.short, proposal: m.proposal, period: m.period, semester: m.semester, date: m.date, teacher: m.teacher };

/** behaviour: the newest grade in words ("bardzo dobre (propozycja)"), or a points school's points ("45 pkt"). */
export function renderBehaviour(value: Behaviour, language: Language): PublishedAs<BehaviourFacts> {
  const words = BEHAVIOUR_WORDS[language];
  const newest = value.newest;
  const state =
    newest !== null
      ? `${newest.grade}${newest.proposal ? ` (${words.proposal})` : ''}`
      : value.points !== null
        ? `${formatPoints(value.points)} ${words.points}`
        : null;
  return withAttributes(stateText(state), behaviourFacts(value));
}

/**
 * The attributes of behaviour: the newest grade's fields, this semester's grade and proposal, the
 * year's (final) grade and proposal, and a points school's points this semester.
 */
const behaviourFacts = (value: Behaviour) => ({
  ...(markFacts(value.newest) ?? {}),
  semester_grade: markFacts(value.semester),
  semester_proposal: markFacts(value.semesterProposal),
  final_grade: markFacts(value.final),
  final_proposal: markFacts(value.finalProposal),
  points: value.points,
  current_semester: value.currentSemester,
});

function formatPoints(points: number): string {
  return Number.isInteger(points) ? String(points) : points.toFixed(1).replace('.', ',');
}
