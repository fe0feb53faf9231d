// The school year on the dashboard's child view (interface 16.3, 17.2): Home Assistant's own statistics graph
// card over the child's imported statistics, one point a day. Two cards, as a graph of two units splits its
// axis: the overall average and each subject's (those of the 1-6 scale) at the head of the grades, the
// attendance (%) at the head of the notes and absences, so the year is seen as the child's view opens. Each is
// shown while its sensor has a figure: a child with descriptive grades only has no average to graph.
import { subjectAverageKeys } from '../../features/grades/subject-averages.js';
import { average } from '../../features/grades/average.js';
import { attendanceShare } from '../../features/attendance/attendance.js';
import { ifKnown } from '../../features/screens/cards.js';
import type { Card } from '../../features/screens/parts.js';
import type { ChildEntities } from '../../features/screens/child-entities.js';
import type { EntityDef } from '../../features/kit/entities.js';
import { seriesId } from './statistics/year.js';

/** A school year is at most about 300 days from September to the end of June; a little more for the summer after it. */
const DAYS_SHOWN = 365;

const FULL = { columns: 'full' };

/** A statistics graph of the child's statistics of those keys, by day over the year, while `sensor` has a figure. */
function graph(e: ChildEntities, sensor: EntityDef, title: string, keys: readonly string[]): Card | undefined {
  const card = ifKnown(e, sensor, () => ({
    type: 'statistics-graph',
    title,
    entities: keys.map((key) => seriesId(e.child.id, key)),
    period: 'day',
    stat_types: ['mean'],
    chart_type: 'line',
    days_to_show: DAYS_SHOWN,
    grid_options: FULL,
  }));
  // The width of the graph it holds, whatever the section makes of a conditional card.
  return card && { ...card, grid_options: FULL };
}

/** The graph of a child's averages over the year; none for a child without the grade averages. */
export function averagesGraph(e: ChildEntities, title: string): Card | undefined {
  const subjects = subjectAverageKeys(e.child.entities);
  if (e.preschool || subjects.length === 0) return undefined;
  return graph(e, average, title, [average.key, ...subjects]);
}

/** The graph of a child's attendance over the year; none for a child without the attendance sensor. */
export function attendanceGraph(e: ChildEntities, title: string): Card | undefined {
  return graph(e, attendanceShare, title, [attendanceShare.key]);
}
