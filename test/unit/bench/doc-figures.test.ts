// One source for every figure: each figure a page marks is the one `npm run bench` wrote to
// docs/bench-figures.json (or the tree gives, the count of test files), so that a figure typed by hand,
// or left behind by a new bench run, fails here until `npm run docs:figures` writes it again.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  count,
  FIGURE_PAGES,
  FIGURES_FILE,
  figuresWithRun,
  freshnessFigures,
  labelName,
  markedFigures,
  mergedFigures,
  treeFigures,
  withFigures,
  RESULTS_FILE,
  type FiguresFile,
} from '../../../src/bench/doc-figures.js';
import { writeResults } from '../../../src/bench/results.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

describe('the pages’ figures', () => {
  it('are those of docs/bench-figures.json, every marked one known', () => {
    const file = JSON.parse(read(FIGURES_FILE)) as FiguresFile;
    const testFiles = readdirSync(new URL('test', root), { recursive: true }).map(String);
    const figures = { ...file.figures, ...treeFigures(testFiles) };
    const marked = FIGURE_PAGES.flatMap((page) => markedFigures(read(page)).map((name) => `${page} ${name}`));
    // The figures the first screen and the cost pages stand on are marked, not typed.
    for (const must of [
      'README.md requests_defaults',
      'README.md requests_reference_freshness',
      'docs/cost-and-faults.md rss_web_delta',
      'docs/calendars-and-board.md rss_web_delta',
    ])
      expect(marked).toContain(must);
    for (const page of FIGURE_PAGES) {
      const text = read(page);
      const { text: written, unknown } = withFigures(text, figures);
      expect(unknown, `${page}: figures the bench does not give`).toEqual([]);
      expect(written === text, `${page}: its figures differ from ${FIGURES_FILE}; run npm run docs:figures`).toBe(true);
    }
  });
});

describe('doc-figures', () => {
  it('writes a figure between its markers and leaves an unknown one as it is', () => {
    const page = 'about <!-- fig:requests_defaults -->1,000<!-- /fig --> a day, <!-- fig:nope -->7<!-- /fig -->';
    expect(withFigures(page, { requests_defaults: '1,175' })).toEqual({
      text: 'about <!-- fig:requests_defaults -->1,175<!-- /fig --> a day, <!-- fig:nope -->7<!-- /fig -->',
      unknown: ['nope'],
    });
    expect(count(1174.6)).toBe('1,175');
  });

  it('names the delays by label, median and worst in minutes, never when one was not seen', () => {
    expect(labelName('lessons: plan change (next school day)')).toBe('lessons_plan_change');
    expect(
      freshnessFigures([
        { label: 'newest_grade', delayMs: 60_000 },
        { label: 'newest_grade', delayMs: 180_000 },
        { label: 'x', delayMs: null },
      ]),
    ).toEqual({
      fresh_newest_grade_median: '1.0',
      fresh_newest_grade_worst: '3.0',
      fresh_newest_grade_n: '2',
      fresh_x_median: 'never',
      fresh_x_worst: 'never',
      fresh_x_n: '1',
    });
  });

  it('keeps the figures a plain run does not measure, with when they were', () => {
    const previous: FiguresFile = { measured_at: '2026-11-20', figures: { week_seconds: '73', requests_defaults: '1,187' } };
    expect(mergedFigures(previous, { requests_defaults: '1,175' }, '2026-11-24')).toEqual({
      measured_at: '2026-11-24',
      figures: { requests_defaults: '1,175', week_seconds: '73' },
      measured: { requests_defaults: '2026-11-24', week_seconds: '2026-11-20' },
    });
  });
});

describe('a run of the bench', () => {
  it('writes its results to bench-results.json alone: docs/ stays as it was', async () => {
    const root = await mkdtemp(join(tmpdir(), 'd2m-bench-results-'));
    try {
      const committed = '{"measured_at":"2026-11-20","figures":{"requests_defaults":"1,187"}}\n';
      await mkdir(join(root, 'docs'));
      await writeFile(join(root, FIGURES_FILE), committed);
      const figures = { measured_at: '2026-11-24', figures: { requests_defaults: '1,175' } };
      const path = await writeResults(root, { rows: [{ measure: 'm' }], runs: { defaults: { perDay: 1175 } }, figures });
      expect(path).toBe(join(root, RESULTS_FILE));
      expect((await readdir(root, { recursive: true })).sort()).toEqual([RESULTS_FILE, 'docs', FIGURES_FILE].sort());
      expect(await readFile(join(root, FIGURES_FILE), 'utf8')).toBe(committed);
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ rows: [{ measure: 'm' }], defaults: { perDay: 1175 }, figures });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('is taken into docs/bench-figures.json by docs:figures, never an older one over newer figures', () => {
    const file: FiguresFile = { measured_at: '2026-11-20', figures: { week_seconds: '73', requests_defaults: '1,187' } };
    expect(figuresWithRun(file, { measured_at: '2026-11-24', figures: { requests_defaults: '1,175' } })).toEqual({
      measured_at: '2026-11-24',
      figures: { requests_defaults: '1,175', week_seconds: '73' },
      measured: { requests_defaults: '2026-11-24', week_seconds: '2026-11-20' },
    });
    expect(figuresWithRun(file, { measured_at: '2026-11-19', figures: { requests_defaults: '1,300' } })).toBe(file);
    expect(figuresWithRun(file, undefined)).toBe(file);
  });
});
