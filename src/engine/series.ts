// A feature's figures of the school year, day by day: what it computes for its sensors (an average, the
// attendance), as the figure stood at the end of each day from the year's first record to the pass's day.
// A feature publishes them beside its states (SourceResult.year); a sink that keeps the year (Home
// Assistant's long-term statistics) writes them as given and knows no rule.

/** One figure of the year: the sensor whose rule makes it, what a family calls it, its unit, its value at each day's end. */
export interface DaySeries {
  /** The key of the sensor whose rule makes it (`average`, `average_<subject>`, `attendance`): it names the series. */
  key: string;
  /** What it is, in the family's language, as a name beside the child's ("średnia: Matematyka"). */
  label: string;
  unit: string | null;
  /** The figure at the end of each day (YYYY-MM-DD) that has one, from the first. */
  days: Readonly<Record<string, number>>;
}

/**
 * A feature's series of the year as one pass holds them: worked out the first time a sink asks (no sink, no
 * work), then kept, so a sink asking again (a retry) costs nothing.
 */
export type YearSeries = () => readonly DaySeries[];

/** The series `compute` makes, worked out once, when first asked for. */
export function yearSeries(compute: () => readonly DaySeries[]): YearSeries {
  let made: readonly DaySeries[] | undefined;
  return () => (made ??= compute());
}
