// What the card lists ahead of the child: homework due in the next two weeks, the tests and quizzes
// of the next two weeks as upcoming_tests lists them (the one window of every screen; the box shows the first
// few), and apart from them the trips, meetings and other agenda entries (a trip is no test: it stands under
// its own heading). Read leniently from the published states, like the rest.
import type { Received } from '../kit/contract.js';
import { agendaHours, schoolCategory } from '../../rules/agenda.js';
import { homeworkUpcomingEntity, upcomingTestsEntity } from './entities.js';
import type { BoardText } from '../../i18n/board-text.js';
import type { BoardAgendaEntry, BoardHomework, BoardPart, BoardTest } from '../screens/parts.js';
import { dayShort, known, spaced, list, savedFiles, str, type BoardMoment } from '../screens/shown.js';

const MAX_HOMEWORK = 6;
const MAX_TESTS = 3;
const MAX_AGENDA = 3;

/** The homework of the next two weeks, each with its day, as homework_upcoming lists it for the dashboard too. */
function homeworkOf(upcoming: Received<typeof homeworkUpcomingEntity> | undefined, clock: BoardMoment, text: BoardText): BoardHomework {
  const items = list(upcoming?.attributes?.items)
    .slice(0, MAX_HOMEWORK)
    .map((h) => {
      const day = str(h.date);
      return {
        when: day === null ? null : dayShort(day, clock, text),
        subject: str(h.subject),
        text: spaced(str(h.topic) ?? str(h.text)) ?? '',
        files: savedFiles(h.files, 'homework').flatMap(({ name, url }) => (url === null ? [] : [{ name, url }])),
      };
    });
  return { title: text.labels.homework, items };
}

/** The tests and quizzes of the next two weeks, nearest first, each a quiz or a test as the agenda feature tells them. */
function testsOf(upcoming: Received<typeof upcomingTestsEntity> | undefined, clock: BoardMoment, text: BoardText): BoardTest[] {
  return list(upcoming?.attributes?.items)
    .slice(0, MAX_TESTS)
    .flatMap((t) => {
      const date = str(t.date);
      if (date === null) return [];
      return [
        { when: dayShort(date, clock, text), subject: str(t.subject), kind: t.kind === 'quiz' ? text.quiz : text.test, text: spaced(str(t.content)) },
      ];
    });
}

/** The trips, meetings and other entries ahead (one under way too), nearest first as upcoming_tests lists them. */
function agendaOf(upcoming: Received<typeof upcomingTestsEntity> | undefined, clock: BoardMoment, text: BoardText): BoardAgendaEntry[] {
  return list(upcoming?.attributes?.other)
    .flatMap((o) => {
      const date = str(o.date);
      const kind = o.kind === 'trip' || o.kind === 'meeting' || o.kind === 'event' ? o.kind : null;
      if (date === null || kind === null) return [];
      const until = str(o.until);
      const time = agendaHours({ time: str(o.time), time_to: str(o.time_to) });
      const days = until !== null && until > date;
      const day = days ? `${dayShort(date, clock, text)} – ${dayShort(until, clock, text)}` : dayShort(date, clock, text);
      const when = days || time === null || time.startsWith('00:00') ? day : `${day} ${time}`;
      return [
        {
          when,
          kind: schoolCategory({ kind, category: str(o.category) }) ?? text.agendaKinds[kind],
          text: spaced(str(o.content) ?? str(o.category)),
        },
      ];
    })
    .slice(0, MAX_AGENDA);
}

/** The agenda's boxes: homework, the tests ahead and the other entries; no box for a list that has no state. */
export const agendaBoard: BoardPart = ({ state, clock, text }) => {
  const [homework, tests] = [state(homeworkUpcomingEntity), state(upcomingTestsEntity)];
  return {
    homework: known(homework) ? homeworkOf(homework, clock, text) : null,
    tests: known(tests) ? testsOf(tests, clock, text) : null,
    agenda: agendaOf(tests, clock, text),
  };
};
