// What Assist asks of the agenda (interface 17.1): a day's homework due, tests and other entries; the tests,
// homework, trips, meetings and events ahead. From the agenda's own view, the whole agenda and homework it computed.
import { agendaHours, schoolCategory, type AgendaItem } from '../../rules/agenda.js';
import type { HomeworkItem } from '../../rules/homework.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { dayShort, spaced } from '../screens/shown.js';
import { joinedFacts, ofSubject, type AskContext, type AskPart, type Told, type UpcomingAsked } from '../screens/ask.js';

/** What a pass keeps for Assist of the agenda's view: null while a list is not read; none of a list the account has not. */
export interface AgendaAsk {
  items: readonly AgendaItem[] | null;
  /** The portal refuses the child's account the agenda (a kindergarten): no entries to tell. */
  itemsAbsent: boolean;
  homework: readonly HomeworkItem[] | null;
  /** The portal refuses the child's account the homework (a kindergarten): no homework to tell. */
  homeworkAbsent: boolean;
}

/** An entry as the board names its kind (another entry by the school's category), with its hours, subject, what the school wrote, its category and teacher. */
function itemLine(e: AgendaItem, c: AskContext): string {
  const text = BOARD_TEXT[c.language];
  const kind = e.kind === 'quiz' ? text.quiz : e.kind === 'test' ? text.test : (schoolCategory(e) ?? text.agendaKinds[e.kind]);
  return joinedFacts(
    [joinedFacts([kind, agendaHours(e)], ' '), e.subject, spaced(e.content), e.category !== kind ? e.category : null, e.teacher],
    ' — ',
  );
}

function homeworkLine(h: HomeworkItem, c: AskContext): string {
  const w = ASK_TEXT[c.language];
  const body = spaced(h.text);
  return joinedFacts(
    [
      h.subject,
      h.topic,
      body !== h.topic ? body : null,
      h.teacher && `${w.common.teacher}: ${h.teacher}`,
      h.assigned && w.agenda.assigned(h.assigned),
      h.done === true ? w.agenda.done : null,
    ],
    ' — ',
  );
}

/** A section of the agenda's entries: none where the account has no agenda, unknown while it is not read. */
const agendaTold = (facts: AgendaAsk, title: string, lines: string[] | undefined): Told[] =>
  facts.itemsAbsent ? [] : [{ title, lines: lines ?? null }];

const isTest = (e: AgendaItem): boolean => e.kind === 'test' || e.kind === 'quiz';
/** An entry that covers `date` (a trip of several days on each of them). */
const covers = (e: AgendaItem, date: string): boolean => e.date <= date && (e.until ?? e.date) >= date;

function day(facts: AgendaAsk, date: string, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].agenda;
  const on = facts.items?.filter((e) => covers(e, date));
  const homework = facts.homeworkAbsent
    ? []
    : [{ title: w.homeworkDue, lines: facts.homework?.filter((h) => h.due === date).map((h) => homeworkLine(h, c)) ?? null }];
  return [
    ...homework,
    ...agendaTold(
      facts,
      w.tests,
      on?.filter(isTest).map((e) => itemLine(e, c)),
    ),
    ...agendaTold(
      facts,
      w.events,
      on?.filter((e) => !isTest(e)).map((e) => itemLine(e, c)),
    ),
  ];
}

function upcoming(facts: AgendaAsk, { until, subject }: UpcomingAsked, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].agenda;
  const text = BOARD_TEXT[c.language];
  const when = (from: string, to: string | null): string =>
    to !== null && to !== from
      ? `${dayShort(from, c.clock, text)} – ${dayShort(to, c.clock, text)} (${from} – ${to})`
      : `${dayShort(from, c.clock, text)} (${from})`;
  const ahead = facts.items?.filter((e) => e.date <= until && (e.until ?? e.date) >= c.clock.today && ofSubject(subject, e.subject));
  const homework = facts.homeworkAbsent
    ? []
    : [
        {
          title: w.homework,
          lines:
            facts.homework
              ?.filter((h) => h.due !== null && h.due >= c.clock.today && h.due <= until && ofSubject(subject, h.subject))
              .map((h) => `${when(h.due as string, null)}: ${homeworkLine(h, c)}`) ?? null,
        },
      ];
  return [
    ...agendaTold(
      facts,
      w.tests,
      ahead?.filter(isTest).map((e) => `${when(e.date, e.until)}: ${itemLine(e, c)}`),
    ),
    ...homework,
    ...agendaTold(
      facts,
      w.events,
      ahead?.filter((e) => !isTest(e)).map((e) => `${when(e.date, e.until)}: ${itemLine(e, c)}`),
    ),
  ];
}

export const agendaAsk: AskPart<AgendaAsk> = { unknown: { items: null, itemsAbsent: false, homework: null, homeworkAbsent: false }, day, upcoming };
