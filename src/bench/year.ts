// A school year in the bench (issue 64, point 6): three children from the day before 1 September to the
// first days of the summer, with the change feed granted and not. A year of simulated minutes would take
// an hour, so the year is sampled: each month one school day from 06:00 to 18:00, and the year's three
// edges whole (31 August into 1 September, the semester's last Friday into 1 February, the last school
// day into the summer), the clock jumping between them as a machine asleep would. After each stretch:
// the heap and RSS (each the median of five samples, each after a settle and a full collection), the
// events fired by kind, the requests made between 22:00 and 06:00, and the CPU of a pass. It runs in a
// fresh process with the bin's V8 flags (launch.ts), so that the memory and the CPU are the bin's.
import { setTimeout as wait } from 'node:timers/promises';
import { simulate } from './simulate.js';
import { warsawTimeOfDay } from '../util/time.js';

export interface YearMonth {
  month: string;
  /** What the stretch is: a month's school day, or an edge of the year. */
  stretch: string;
  heapMB: number;
  rssMB: number;
  /** The events fired in the stretch, by kind. */
  events: Record<string, number>;
  nightReads: number;
}

export interface YearResult {
  feed: boolean;
  realMs: number;
  months: YearMonth[];
  /** CPU per pass that read the register, average (ms), over the year's passes. */
  cpuPassMs: number;
}

const day = (date: string) => ({ from: `${date}T06:00:00`, to: `${date}T18:00:00` });
/** The stretches, in Warsaw wall time (the offset added below). */
const STRETCHES: readonly { month: string; stretch: string; from: string; to: string }[] = [
  {
    month: '2026-09',
    stretch: 'edge: 31 August 12:00 into 1 September 18:00 (the rollover)',
    from: '2026-08-31T12:00:00',
    to: '2026-09-01T18:00:00',
  },
  { month: '2026-10', stretch: 'a Monday', ...day('2026-10-05') },
  { month: '2026-11', stretch: 'a Monday', ...day('2026-11-02') },
  { month: '2026-12', stretch: 'a Monday', ...day('2026-12-07') },
  { month: '2027-01', stretch: 'a Monday', ...day('2027-01-11') },
  {
    month: '2027-02',
    stretch: "edge: the semester's last Friday 12:00 into 1 February 18:00",
    from: '2027-01-29T12:00:00',
    to: '2027-02-01T18:00:00',
  },
  { month: '2027-03', stretch: 'a Monday', ...day('2027-03-01') },
  { month: '2027-04', stretch: 'a Monday', ...day('2027-04-12') },
  { month: '2027-05', stretch: 'a Monday', ...day('2027-05-10') },
  {
    month: '2027-06',
    stretch: 'edge: the last school day 12:00 into the summer (Monday 18:00)',
    from: '2027-06-25T12:00:00',
    to: '2027-06-28T18:00:00',
  },
];

/** A Warsaw wall time as an instant string: +01:00 from November to March, +02:00 else (none of the stretches crosses a change). */
function warsaw(wall: string): string {
  const month = Number(wall.slice(5, 7));
  return `${wall}${month >= 4 && month <= 10 ? '+02:00' : '+01:00'}`;
}

/** The median of five readings of the heap and RSS, each after a settle (real time) and a full collection. */
async function memorySample(): Promise<{ heapMB: number; rssMB: number }> {
  const heap: number[] = [];
  const rss: number[] = [];
  for (let n = 0; n < 5; n++) {
    await wait(100);
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    heap.push(m.heapUsed / 1048576);
    rss.push(m.rss / 1048576);
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[2]!;
  return { heapMB: median(heap), rssMB: median(rss) };
}

export async function year(feed: boolean): Promise<YearResult> {
  const months: YearMonth[] = [];
  let nightReads = 0;
  let cpu = 0;
  let passes = 0;
  let before = new Map<string, number>();
  const r = await simulate({
    children: 3,
    start: warsaw(STRETCHES[0]!.from),
    days: 0,
    record: false,
    feedGranted: feed,
    spans: STRETCHES.map((s) => ({ from: warsaw(s.from), to: warsaw(s.to) })),
    onRequest: (_child, _key, at) => {
      const time = warsawTimeOfDay(at);
      if (time >= '22:00' || time < '06:00') nightReads++;
    },
    onCycle: (cpuMicros, hosts) => {
      if (!hosts.includes('register')) return;
      cpu += cpuMicros;
      passes++;
    },
    onSpanEnd: async (index, publisher) => {
      const events: Record<string, number> = {};
      for (const [kind, n] of publisher.eventsByKind) if (n !== (before.get(kind) ?? 0)) events[kind] = n - (before.get(kind) ?? 0);
      before = new Map(publisher.eventsByKind);
      const stretch = STRETCHES[index]!;
      months.push({ month: stretch.month, stretch: stretch.stretch, ...(await memorySample()), events, nightReads });
      nightReads = 0;
    },
  });
  return { feed, realMs: r.realMs, months, cpuPassMs: passes === 0 ? 0 : cpu / passes / 1000 };
}
