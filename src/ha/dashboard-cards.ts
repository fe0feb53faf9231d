// The dashboard's blocks, one builder each: a block reads a child's entities and returns a built-in
// Lovelace card, or nothing when the child lacks what it needs. Every text is in the dashboard's
// language, every date carries its weekday, and no state Home Assistant calls unknown reaches a parent.
// The templates themselves are files (src/ha/templates/*.jinja); a block names the entity ids they read.
import type { EntityDef } from '../feature-kit/entities.js';
import type { ChildEntities } from './dashboard-child.js';
import { filled, markdownText, keyed, reads, type TemplateName, type TemplateValue } from './dashboard-templates.js';
import type { DashboardText } from '../i18n/dashboard-text.js';
import { FEATURES } from '../features/index.js';
import type { Language } from '../config/language.js';
import { passwordChangeAdvised, problem } from '../features/status/status.js';
import { briefingEntity } from '../features/briefing/briefing.js';
import { newestMessage } from '../features/messages/messages.js';
import { newestNotice } from '../features/notices/notices.js';
import { homeworkDueEntity, upcomingTestsEntity } from '../features/agenda/agenda.js';
import {
  atSchool,
  currentLesson,
  nextLesson,
  planChangesToday,
  planChangesTomorrow,
  schoolDayToday,
  schoolDayTomorrow,
  timetableToday,
  timetableTomorrow,
} from '../features/timetable/entities.js';

export { ChildEntities, type DashboardChild } from './dashboard-child.js';

export type Card = Record<string, unknown>;

export type Block = (e: ChildEntities, t: DashboardText) => Card | undefined;

/** A markdown card of a template file (after prelude.jinja's macros and the parts it needs). */
export function markdown(
  e: ChildEntities,
  t: DashboardText,
  name: TemplateName,
  variables: Readonly<Record<string, TemplateValue>>,
  extra: Card = {},
  parts: readonly TemplateName[] = ['prelude'],
): Card {
  return { type: 'markdown', content: filled(e, t, name, variables, parts), ...extra };
}

/**
 * A card shown only while one of the entities has a state: never read, refused (a kindergarten's grades)
 * or gone from Home Assistant (a module left the device; a dashboard condition reads a missing entity as
 * unavailable), a box would say something untrue ("no grades yet") or nothing.
 */
export function whileKnown(entities: readonly string[], card: Card): Card {
  const known = (entity: string) => ['unknown', 'unavailable'].map((state) => ({ condition: 'state', entity, state_not: state }));
  const conditions =
    entities.length === 1
      ? known(entities[0]!)
      : [{ condition: 'or', conditions: entities.map((entity) => ({ condition: 'and', conditions: known(entity) })) }];
  return { type: 'conditional', conditions, card };
}

/** One entity's card (built only for a child that has it), shown while the entity has a state. */
export const ifKnown = (e: ChildEntities, entity: EntityDef, card: () => Card): Card | undefined =>
  e.has(entity) ? whileKnown([e.id(entity)], card()) : undefined;

/** The ids of those of the entities the child has. */
export function idsOf(e: ChildEntities, ...entities: readonly EntityDef[]): string[] {
  return entities.filter((entity) => e.has(entity)).map((entity) => e.id(entity));
}

/** The templates' `kindergarten`: set for a kindergarten child (the day's words), none for a school child. */
export const kindergartenVariable = (e: ChildEntities): TemplateValue => ({ text: e.preschool ? 'yes' : undefined });

export const heading = (title: string, icon?: string): Card => ({ type: 'heading', heading: title, ...(icon ? { icon } : {}) });

/** A card shown while a binary sensor is ON. */
export const ifOn = (entity: string, card: Card): Card => ({ type: 'conditional', conditions: [{ condition: 'state', entity, state: 'on' }], card });

export const problemBanner: Block = (e, t) =>
  e.has(problem) ? ifOn(e.id(problem), markdown(e, t, 'problem', keyed(problem, 'message'), { text_only: true }, [])) : undefined;

/**
 * The portal's advice to change the password (live-notes 19), which `problem` carries while it stays
 * OFF: shown in the bridge view only, as information, for as long as the last login met it
 * (password_change_advised ON); no card at all otherwise.
 */
export const passwordAdviceBanner: Block = (e, t) =>
  e.has(problem, passwordChangeAdvised)
    ? ifOn(e.id(passwordChangeAdvised), markdown(e, t, 'password-advice', keyed(problem, 'advice_message'), { text_only: true }, []))
    : undefined;

/** The features' banners over the child's column, each shown while its binary sensor is ON. */
export const banners = (lang: Language): Block[] =>
  FEATURES.flatMap(({ dashboard }) => (dashboard?.banner ? [dashboard.banner] : [])).map(({ while: on, icon, says }) => (e) => {
    const content = `### ${icon} ${says(lang, markdownText(e.child.name))}`;
    return e.has(on) ? ifOn(e.id(on), { type: 'markdown', text_only: true, content }) : undefined;
  });

/** The features' facts on one line (src/features/screen-parts.ts), each its entity's name and state. */
export const summary =
  (lang: Language): Block =>
  (e, t) => {
    const facts = FEATURES.flatMap(({ dashboard }) => (dashboard?.fact && e.has(dashboard.fact.entity) ? [dashboard.fact] : []));
    if (facts.length === 0) return undefined;
    const list = facts.map(({ entity, icon, day }) => ({ id: e.id(entity), icon, label: entity.name[lang], day: day ?? '' }));
    // Without a frame: the family view must fit a 1280x800 tablet for two children.
    return markdown(e, t, 'summary', { facts: { list } }, { text_only: true });
  };

/** The briefing's line: the next school day in a sentence, where a parent looks first. */
export const briefingLine: Block = (e, t) => {
  if (!e.has(briefingEntity)) return undefined;
  return markdown(e, t, 'briefing', keyed(briefingEntity), { text_only: true }, []);
};

/** The lesson in progress or the next one, today's hours and today's lessons with their changes. */
export const today: Block = (e, t) => {
  if (!e.has(currentLesson) && !e.has(nextLesson) && !e.has(timetableToday) && !e.has(planChangesToday)) return undefined;
  return markdown(
    e,
    t,
    'today',
    {
      ...keyed(currentLesson, 'from', 'to', 'room', 'no'),
      ...keyed(nextLesson, 'date', 'start', 'time', 'end', 'room'),
      school_day: reads(schoolDayToday),
      ...keyed(atSchool),
      timetable: reads(timetableToday, 'hours', 'lessons', 'kindergarten'),
      plan_changes: reads(planChangesToday, 'changes'),
      kindergarten: kindergartenVariable(e),
    },
    {},
    ['prelude', 'plan'],
  );
};

/**
 * The next school day: its date with the weekday, hours, plan changes and the homework due; a saved
 * homework file links to the board's own address (base) + its url.
 */
export const nextDay =
  (base: string | undefined): Block =>
  (e, t) => {
    if (!e.has(planChangesTomorrow) && !e.has(homeworkDueEntity) && !e.has(timetableTomorrow)) return undefined;
    return markdown(
      e,
      t,
      'next-day',
      {
        timetable: reads(timetableTomorrow, 'date', 'hours', 'lessons', 'kindergarten'),
        school_day: reads(schoolDayTomorrow, 'date'),
        plan_changes: reads(planChangesTomorrow, 'date', 'changes'),
        homework: reads(homeworkDueEntity, 'date', 'items'),
        base: { text: base },
        kindergarten: kindergartenVariable(e),
      },
      {},
      ['prelude', 'plan'],
    );
  };

/** Tests of the next seven days (upcoming_tests covers two weeks); none for a kindergarten child, nothing while the list is unknown. */
export const testsWeek: Block = (e, t) =>
  // Without a frame, as the summary: with one, two children's family view passed 800 px.
  e.preschool
    ? undefined
    : ifKnown(e, upcomingTestsEntity, () =>
        markdown(e, t, 'tests-week', { tests: reads(upcomingTestsEntity, 'items', 'next_7_days') }, { text_only: true }),
      );

/**
 * A kindergarten child's news in the family view, where a school child has its tests: the newest message
 * and the newest announcement, a line each (without a frame, as the summary: the view must fit a tablet).
 */
export const preschoolNews: Block = (e, t) => {
  if (!e.preschool || (!e.has(newestMessage) && !e.has(newestNotice))) return undefined;
  return whileKnown(
    idsOf(e, newestMessage, newestNotice),
    markdown(
      e,
      t,
      'news',
      { message: reads(newestMessage, 'sender', 'date', 'read'), notice: reads(newestNotice, 'start_date') },
      { text_only: true },
    ),
  );
};
