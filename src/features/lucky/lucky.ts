// The lucky feature: the lucky number, asked only until the number for today or the next school
// day is known, and the lucky event when it is the child's. Many schools do not run it (live-notes 8):
// then `lucky_number` is None with `in_use: false`, no problem, and the portal is asked once a day.
// Its screens: the number on the board's card, the dashboard's banner and summary fact, its `check` line.
import {
  luckyEvents,
  luckyShown,
  luckyToday as luckyOfDay,
  pickLucky,
  type LuckyNumber,
  type LuckyPayload,
  type LuckyShown,
  type LuckyToday,
} from './rules.js';
import { warsawDate, warsawInstant } from '../../util/time.js';
import { want } from '../../engine/resource.js';
import { LUCKY } from './resources.js';
import { FEATURE_TEXT } from '../../i18n/feature-text.js';
import { checkProbe } from '../screens/parts.js';
import { dayShort, str } from '../screens/shown.js';
import { binary, eventEntity, sensor } from '../kit/entities.js';
import { onOff } from '../kit/render.js';
import { feature } from '../feature.js';
import { shape, statesOf, type AttributeName, type Events } from '../kit/contract.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import { luckyAsk, type LuckyAsk } from './ask.js';

/**
 * The attributes of lucky_number: the day its number is for, the child's register number, whether the number is the
 * child's on its day (`mine`: today's, or the next school day's once the portal shows it; what every screen tells), and
 * whether the school runs the lucky number at all.
 */
export type LuckyFacts = { day: string | null; register_number: string | null; mine: boolean; in_use: boolean };

export const luckyNumber = sensor(
  'lucky_number',
  { en: 'Lucky number', pl: 'Szczęśliwy numerek', uk: 'Щасливий номер' },
  {
    icon: 'mdi:clover',
    attributes: shape<LuckyFacts>(),
    module: [LUCKY],
    // The number of its day (`day`: today's, or the next school day's once the portal shows it); `in_use: false` for a school without it.
    state: (lucky: LuckyToday) => ({
      state: lucky.number === null ? null : String(lucky.number),
      attributes: { day: lucky.day, register_number: lucky.registerNumber, mine: lucky.mine, in_use: lucky.inUse },
    }),
  },
);
export const luckyToday = binary(
  'lucky_today',
  { en: 'Lucky today', pl: 'Ma szczęśliwy numerek', uk: 'Має щасливий номер' },
  // ON when today's number is the child's; unknown (never OFF) where the school does not run it or refuses it.
  { icon: 'mdi:clover', module: [LUCKY], state: (lucky: LuckyToday) => (lucky.inUse ? onOff(lucky.mineToday) : { state: null }) },
);
export const luckyEvent = eventEntity('lucky', { en: 'Lucky number drawn', pl: 'Wylosowany numerek', uk: 'Новий щасливий номер' }, 'mdi:clover', {
  payload: shape<LuckyPayload>(),
  module: [LUCKY],
});

export const lucky = feature({
  name: 'lucky',
  reads: () => [want(LUCKY)],
  entities: [luckyNumber, luckyToday, luckyEvent],
  ask: luckyAsk,
  create: () => new LuckySource(),
  // The number on the child's card, with its day when it is not today's, highlighted when it is the child's.
  board: ({ state, language, clock, text }) => {
    const shown = state(luckyNumber);
    const number = str(shown?.state);
    if (number === null) return null;
    const day = str(shown?.attributes?.day);
    const words = FEATURE_TEXT[language].lucky;
    const label = luckyNumber.name[language] + (day === null || day === clock.today ? '' : ` ${words.forDay(dayShort(day, clock, text))}`);
    // Whose it is, as the feature says it for the number's day: the board works nothing out.
    return { facts: [{ look: 'badge', label, value: number, mark: shown?.attributes?.mine === true ? words.yours : null }] };
  },
  dashboard: {
    banner: { while: luckyToday, icon: '🍀', says: (language, name) => FEATURE_TEXT[language].lucky.yoursNamed(name) },
    fact: {
      entity: luckyNumber,
      icon: '🍀',
      day: 'day' satisfies AttributeName<typeof luckyNumber>,
      mark: { attribute: 'mine' satisfies AttributeName<typeof luckyNumber>, says: (language) => FEATURE_TEXT[language].lucky.yours },
    },
  },
  check: checkProbe({ read: LUCKY, name: (language) => luckyNumber.name[language].toLowerCase(), used: (answer) => answer.inUse }),
});

/** What the briefing reads: the number of today or the next school day and whether it is the child's, as last read. */
export type LuckyOutput = LuckyShown | undefined;

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    lucky: LuckyOutput;
  }
}

class LuckySource implements Source {
  private lucky: LuckyNumber | undefined;
  /** Whether the school runs the lucky number; undefined until the portal first answered (or refused). */
  private inUse: boolean | undefined;

  compute(ctx: SourceContext): Promise<SourceResult> {
    // Disabled and LuckyNumberIsNotActive are a remembered refusal (undefined); its declaration's own
    // rule (luckySettledUntil) says how long a read answers the question.
    const answer = ctx.cache.get(LUCKY);
    const inUse = answer?.inUse ?? false;
    if (answer && !inUse && this.inUse !== false) ctx.log.info('the school does not use the lucky number; asking again in a day');
    this.inUse = inUse;
    this.lucky = pickLucky(answer?.entries ?? [], ctx.today);
    // Only a read can bring a new number, so the event is looked for here and not in restate.
    const today = luckyOfDay(this.lucky, ctx.identity.registerNumber, ctx.today, inUse);
    return Promise.resolve({
      states: renderLucky(today),
      events: { lucky: luckyEvents(today) } satisfies Events<typeof luckyEvent>,
      output: luckyShown(today) satisfies LuckyOutput,
      ask: today satisfies LuckyAsk,
    });
  }

  /**
   * The start of the day of a number published early (the next school day's): lucky_today turns ON at
   * midnight then, not at the next look at the portal.
   */
  nextBoundary(now: number): number | null {
    return this.lucky !== undefined && this.lucky.day > warsawDate(now) ? warsawInstant(this.lucky.day, '00:00') : null;
  }

  /** The states as of today without asking the portal (the day may have moved on since). */
  restate(ctx: SourceContext): SourceResult['states'] {
    return this.inUse === undefined ? undefined : renderLucky(luckyOfDay(this.lucky, ctx.identity.registerNumber, ctx.today, this.inUse));
  }
}

/** lucky_number and lucky_today, as their declarations make them from the day's number. */
export function renderLucky(lucky: LuckyToday) {
  return statesOf([luckyNumber, luckyToday], lucky);
}
