// The school year's rows of the bench table and its figures for the pages (year.ts runs it).
import { decimal } from './doc-figures.js';
import type { YearResult } from './year.js';
import type { BenchTableRow as Row } from './results.js';

/** Heap growth from October's sample to June's last, in MB. */
function heapGrowth(r: YearResult): number {
  const october = r.months.find((m) => m.month === '2026-10');
  const june = r.months.at(-1);
  return (june?.heapMB ?? 0) - (october?.heapMB ?? 0);
}

/** What fired at an edge's first morning (1 September, 1 February, the summer's first Monday), by kind. */
function edgeEvents(r: YearResult, month: string): string {
  const m = r.months.filter((x) => x.month === month).at(-1);
  const list = Object.entries(m?.events ?? {}).map(([kind, n]) => `${kind} ${n}`);
  return list.length === 0 ? 'none' : list.join(', ');
}

export function yearRows(years: readonly YearResult[]): { rows: Row[]; figures: Record<string, string> } {
  const rows: Row[] = [];
  const figures: Record<string, string> = {};
  for (const r of years) {
    const road = r.changeFeed ? 'with the feed' : 'without the feed';
    const name = r.changeFeed ? 'feed' : 'plain';
    rows.push({
      measure: `year, 3 children, ${road}: heap after each month (MB, median of 5 after a GC)`,
      value: r.months.map((m) => m.heapMB.toFixed(1)).join(' '),
      target: '',
      ok: null,
    });
    rows.push({
      measure: `year, ${road}: RSS after each month (MB, median of 5)`,
      value: r.months.map((m) => m.rssMB.toFixed(0)).join(' '),
      target: '',
      ok: null,
    });
    const growth = heapGrowth(r);
    rows.push({ measure: `year, ${road}: heap growth October -> June (MB)`, value: growth.toFixed(1), target: '<= 3', ok: growth <= 3 });
    const night = r.months.reduce((n, m) => n + m.nightReads, 0);
    rows.push({ measure: `year, ${road}: requests between 22:00 and 06:00 after the start`, value: String(night), target: '0', ok: night === 0 });
    const schoolYear = r.months.reduce((n, m) => n + (m.events.school_year ?? 0), 0);
    rows.push({
      measure: `year, ${road}: school_year events (3 children, one rollover)`,
      value: String(schoolYear),
      target: '3 once it exists',
      ok: null,
    });
    for (const [month, edge] of [
      ['2026-09', '1 September'],
      ['2027-02', '1 February'],
    ] as const)
      rows.push({ measure: `year, ${road}: events at ${edge} (3 children)`, value: edgeEvents(r, month), target: '', ok: null });
    // Nobody enters anything over the summer: its first Monday is quiet.
    const summer = edgeEvents(r, '2027-06');
    rows.push({ measure: `year, ${road}: events at the summer (3 children)`, value: summer, target: 'none', ok: summer === 'none' });
    rows.push({
      measure: `year, ${road}: CPU per register pass, the bin's V8 flags (ms)`,
      value: r.cpuPassMs.toFixed(1),
      target: '<= 50',
      ok: r.cpuPassMs <= 50,
    });
    rows.push({ measure: `year, ${road}: real time (s)`, value: (r.realMs / 1000).toFixed(0), target: '', ok: null });
    Object.assign(figures, {
      [`year_${name}_heap_growth`]: decimal(growth),
      [`year_${name}_heap`]: `${decimal(r.months[0]?.heapMB ?? 0)} -> ${decimal(r.months.at(-1)?.heapMB ?? 0)}`,
      [`year_${name}_rss`]: `${decimal(r.months[0]?.rssMB ?? 0, 0)} -> ${decimal(r.months.at(-1)?.rssMB ?? 0, 0)}`,
      [`year_${name}_night_reads`]: String(night),
      [`year_${name}_school_year_events`]: String(schoolYear),
      [`year_${name}_cpu_pass_ms`]: decimal(r.cpuPassMs, 0),
    });
  }
  return { rows, figures };
}
