// The graph of the school year on the dashboard's child view (interface 16.3): Home Assistant's own
// statistics graph card over the child's imported statistics, the overall average and each subject's
// (those of the 1-6 scale), one point a day.
import { subjectAverageKeys } from '../../features/grades/subject-averages.js';
import { average } from '../../features/grades/average.js';
import type { Card } from '../../features/screens/parts.js';
import type { ChildEntities } from '../../features/screens/child-entities.js';
import { seriesId } from './statistics/year.js';

/** A school year is at most about 300 days from September to the end of June; a little more for the summer after it. */
const DAYS_SHOWN = 365;

/** The statistics graph card of a child's averages over the year; none for a child without the grade averages. */
export function yearGraph(e: ChildEntities, title: string): Card | undefined {
  const subjects = subjectAverageKeys(e.child.entities);
  if (e.preschool || subjects.length === 0) return undefined;
  return {
    type: 'statistics-graph',
    title,
    entities: [average.key, ...subjects].map((key) => seriesId(e.child.id, key)),
    period: 'day',
    stat_types: ['mean'],
    chart_type: 'line',
    days_to_show: DAYS_SHOWN,
    grid_options: { columns: 'full' },
  };
}
