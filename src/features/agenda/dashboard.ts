// The agenda on the dashboard: the tests ahead in each child's column of the family view, and in the child's
// own view the homework of the next two weeks and the agenda (every test, then the trips, meetings and other
// entries). Templates beside: tests-ahead.jinja, homework.jinja, calendar.jinja.
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed, reads } from '../screens/templates.js';
import type { DashboardPart } from '../screens/parts.js';
import { homeworkUpcomingEntity, upcomingTestsEntity } from './entities.js';

export const agendaDashboard: DashboardPart = {
  family: [
    {
      at: 'ahead',
      // The tests of the next two weeks, the first few; none for a kindergarten child, nothing while the list is unknown.
      // Without a frame, as the summary: with one, two children's family view passed 800 px.
      block: (e, t) =>
        e.preschool
          ? undefined
          : ifKnown(e, upcomingTestsEntity, () =>
              markdown(e, t, 'features/agenda/tests-ahead', { tests: reads(upcomingTestsEntity, 'items') }, { text_only: true }),
            ),
    },
  ],
  child: [
    {
      section: 'calendar',
      // The homework due in the next two weeks, soonest first; nothing while the list is unknown.
      block: (e, t) => ifKnown(e, homeworkUpcomingEntity, () => markdown(e, t, 'features/agenda/homework', keyed(homeworkUpcomingEntity, 'items'))),
    },
    {
      section: 'calendar',
      // The agenda: every test of the next two weeks, then the trips, meetings and other events; nothing while the list is unknown.
      block: (e, t) =>
        ifKnown(e, upcomingTestsEntity, () => markdown(e, t, 'features/agenda/calendar', keyed(upcomingTestsEntity, 'items', 'other'))),
    },
  ],
};
