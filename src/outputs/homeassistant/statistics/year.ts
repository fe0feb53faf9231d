// The school year as Home Assistant's statistics hold it: each series a feature computed (its figure at the
// end of each day, by its sensor's rule) becomes one external statistic of the child, its id from the child
// and the series' key, its name the child's and the series' words. Nothing here computes a figure: a new
// statistic is a new series of a feature.
import type { ChildYear } from '../../../bus/bus.js';

/** Every statistic's source and the domain of its id (Home Assistant wants the two equal). */
export const SOURCE = 'dziennik2mqtt';

/** What Home Assistant keeps of a statistic beside its rows (recorder/import_statistics' metadata). */
export interface StatisticMetadata {
  statistic_id: string;
  name: string;
  source: typeof SOURCE;
  unit_of_measurement: string | null;
  has_sum: false;
  /** 1: a mean (arithmetic); its rows have mean, min and max. */
  mean_type: 1;
  unit_class: null;
}

/** One statistic of the year: its metadata and its figure at each day's end, by day, from its first day. */
export interface YearStatistic {
  metadata: StatisticMetadata;
  days: Readonly<Record<string, number>>;
}

/** An external statistic's id: `dziennik2mqtt:<object>`, the object as Home Assistant takes it ([a-z0-9_], no `__`, no `_` at an end). */
export function statisticId(object: string): string {
  const clean = object
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return `${SOURCE}:${clean}`;
}

/** The statistic of a child's series: `dziennik2mqtt:<child>_<series key>`. */
export const seriesId = (child: string, key: string): string => statisticId(`${child}_${key}`);

/** Each statistic of one child, as its features' series give it, named "Zofia – średnia: Matematyka". */
export function yearStatistics(child: string, year: ChildYear): YearStatistic[] {
  return Object.values(year.series)
    .flatMap((series) => series())
    .filter((s) => Object.keys(s.days).length > 0)
    .map((s) => ({
      metadata: {
        statistic_id: seriesId(child, s.key),
        name: `${year.name} – ${s.label}`,
        source: SOURCE,
        unit_of_measurement: s.unit,
        has_sum: false,
        mean_type: 1,
        unit_class: null,
      },
      days: s.days,
    }));
}
