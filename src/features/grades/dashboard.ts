// The grades on the dashboard, in the child's own view: the newest grades with their comments; the averages
// with the forecasts, the term grades, proposals, the first semester's (in the second) and what the next
// threshold needs; the report card's forecast and honours; the subjects at risk (grades.jinja beside).
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import type { DashboardPart } from '../screens/parts.js';
import { average } from './average.js';
import { newestGrade } from './newest.js';
import { gradeAtRisk } from './subject-averages.js';

export const gradesDashboard: DashboardPart = {
  child: [
    {
      section: 'grades',
      // Only once the grades have answered (grade_at_risk has a state then, even with no grade).
      block: (e, t) =>
        (!e.has(newestGrade) && !e.has(average)) || e.preschool
          ? undefined
          : ifKnown(e, [newestGrade, average, gradeAtRisk], () =>
              markdown(e, t, 'features/grades/grades', {
                ...keyed(newestGrade, 'recent', 'described'),
                ...keyed(average, 'subjects', 'previous_semester', 'forecast_average', 'honours'),
                ...keyed(gradeAtRisk, 'subjects'),
              }),
            ),
    },
  ],
};
