// One source for every figure: `npm run bench` writes what it measured to bench-results.json (not committed), and
// `npm run docs:figures` takes the figures of that run into docs/bench-figures.json (committed) and fills the
// pages (README, docs/, the app's DOCS.md; never the CHANGELOG, written for families), which carry each figure
// between markers, `<!-- fig:NAME -->1,175<!-- /fig -->`. A run of the bench alone changes nothing in the tree. A
// test fails when a page's figure differs from the file's, so a figure typed by hand cannot drift.

/** The figures the pages quote (committed: the pages are made from it); only `npm run docs:figures` writes it. */
export const FIGURES_FILE = 'docs/bench-figures.json';

/** What a run of the bench writes, in the checkout's root (git-ignored): its table, each run's details and its figures. */
export const RESULTS_FILE = 'bench-results.json';

/** The pages whose figures come from the bench. */
export const FIGURE_PAGES = [
  'README.md',
  'hassio-addon/DOCS.md',
  'docs/cost-and-faults.md',
  'docs/calendars-and-board.md',
  'docs/home-assistant.md',
  'docs/development.md',
  'docs/polling.md',
];

export interface FiguresFile {
  /** When the bench measured them (its machine's clock), and whether it was a `--full` run. */
  measured_at: string;
  /** The figures, each as a page shows it ("1,175", "3.1"). */
  figures: Record<string, string>;
  /** When each figure was last measured, for those a plain run does not measure (the `--full` ones). */
  measured?: Record<string, string>;
}

const MARKER = /<!-- fig:([a-z0-9_]+) -->([\s\S]*?)<!-- \/fig -->/g;

/** The page with every marked figure set from `figures`; `unknown` names the markers the file has no figure for. */
export function withFigures(page: string, figures: Readonly<Record<string, string>>): { text: string; unknown: string[] } {
  const unknown: string[] = [];
  const text = page.replace(MARKER, (whole, name: string) => {
    const value = figures[name];
    if (value === undefined) {
      unknown.push(name);
      return whole;
    }
    return `<!-- fig:${name} -->${value}<!-- /fig -->`;
  });
  return { text, unknown };
}

/** The figure names a page marks, in order. */
export function markedFigures(page: string): string[] {
  return [...page.matchAll(MARKER)].map((m) => m[1] as string);
}

/** A count as the pages write it: "1,175". */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A number with `digits` decimals: "3.1". */
export function decimal(n: number, digits = 1): string {
  return n.toFixed(digits);
}

/** A label of the bench's freshness rows as a figure's name: "lessons: plan change (next school day)" -> "lessons_plan_change". */
export function labelName(label: string): string {
  return label
    .replace(/\(.*?\)/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The pages' figures of the delays: `fresh_<label>_median`, `_worst` (minutes) and `_n` (how many changes). */
export function freshnessFigures(freshness: readonly { label: string; delayMs: number | null }[]): Record<string, string> {
  const byLabel = new Map<string, (number | null)[]>();
  for (const f of freshness) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), f.delayMs]);
  const out: Record<string, string> = {};
  for (const [label, list] of byLabel) {
    const known = list.filter((d): d is number => d !== null).sort((a, b) => a - b);
    const minutes = (ms: number | undefined | null): string => (ms === undefined || ms === null ? 'never' : decimal(ms / 60_000));
    const name = labelName(label);
    out[`fresh_${name}_median`] = minutes(known[Math.floor((known.length - 1) / 2)]);
    out[`fresh_${name}_worst`] = known.length < list.length ? 'never' : minutes(known.at(-1));
    out[`fresh_${name}_n`] = String(list.length);
  }
  return out;
}

/**
 * The new file: this run's figures, and those it did not measure kept from the last file with when they
 * were measured (a plain run keeps the `--full` run's week).
 */
export function mergedFigures(previous: FiguresFile | undefined, figures: Record<string, string>, at: string): FiguresFile {
  const measured: Record<string, string> = {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(previous?.figures ?? {})) {
    if (name in figures) continue;
    kept[name] = value;
    measured[name] = previous?.measured?.[name] ?? previous?.measured_at ?? at;
  }
  for (const name of Object.keys(figures)) measured[name] = at;
  const all = { ...kept, ...figures };
  const sorted = <T>(record: Record<string, T>): Record<string, T> =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return { measured_at: at, figures: sorted(all), measured: sorted(measured) };
}

/** The figures a run measured, as bench-results.json keeps them (`figures` there). */
export interface RunFigures {
  /** The day of the run (its machine's clock). */
  measured_at: string;
  figures: Record<string, string>;
}

/**
 * docs/bench-figures.json with a run's figures taken in (mergedFigures), or as it was: without a run, or with one
 * older than the file's figures (a results file left from before), which would put old figures back.
 */
export function figuresWithRun(previous: FiguresFile | undefined, run: RunFigures | undefined): FiguresFile | undefined {
  if (run === undefined || (previous !== undefined && run.measured_at < previous.measured_at)) return previous;
  return mergedFigures(previous, run.figures, run.measured_at);
}

/** Figures the tree itself gives, not the bench: how many test files the suite has. */
export function treeFigures(testFiles: readonly string[]): Record<string, string> {
  return { test_files: count(testFiles.filter((f) => f.endsWith('.test.ts')).length) };
}
