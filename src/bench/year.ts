// A school year in the bench (issue 64, point 6): three children from the day before 1 September to the
// first days of the summer, with the change feed granted and not. A year of simulated minutes would take
// an hour, so the year is sampled: each month a school morning (07:00 to 11:00), and each of the year's
// three edges (1 September, 1 February, the summer) as the afternoon before it and the morning after it,
// the clock jumping between them as a machine asleep would (its passes then read what came due meanwhile,
// so the events of a jump are what the teachers entered in the month, fired at once; over the summer the
// simulator's records stay as the last school day left them, so its first Monday fires nothing). After each stretch:
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
  changeFeed: boolean;
  realMs: number;
  months: YearMonth[];
  /** CPU per pass that read the register, average (ms), over the year's passes. */
  cpuPassMs: number;
}

const hours = (date: string, from: string, to: string) => ({ from: `${date}T${from}:00`, to: `${date}T${to}:00` });
/**
 * The stretches, in Warsaw wall time (the offset added below): a month's school morning (07:00 to 11:00),
 * and each edge as the last afternoon before it and the first morning after it.
 */
const STRETCHES: readonly { month: string; stretch: string; from: string; to: string }[] = [
  { month: '2026-08', stretch: 'edge: 31 August, the afternoon (a start)', ...hours('2026-08-31', '14:00', '22:00') },
  { month: '2026-09', stretch: 'edge: 1 September, the first morning', ...hours('2026-09-01', '06:00', '12:00') },
  { month: '2026-10', stretch: 'a school morning', ...hours('2026-10-05', '07:00', '11:00') },
  { month: '2026-11', stretch: 'a school morning', ...hours('2026-11-02', '07:00', '11:00') },
  { month: '2026-12', stretch: 'a school morning', ...hours('2026-12-07', '07:00', '11:00') },
  { month: '2027-01', stretch: "edge: the semester's last Friday, the afternoon", ...hours('2027-01-29', '14:00', '22:00') },
  { month: '2027-02', stretch: 'edge: 1 February, the first morning', ...hours('2027-02-01', '06:00', '12:00') },
  { month: '2027-03', stretch: 'a school morning', ...hours('2027-03-01', '07:00', '11:00') },
  { month: '2027-04', stretch: 'a school morning', ...hours('2027-04-12', '07:00', '11:00') },
  { month: '2027-05', stretch: 'a school morning', ...hours('2027-05-10', '07:00', '11:00') },
  { month: '2027-06', stretch: 'edge: the last school day, the afternoon', ...hours('2027-06-25', '12:00', '22:00') },
  { month: '2027-06', stretch: 'edge: the first Monday of the summer, the morning', ...hours('2027-06-28', '06:00', '12:00') },
];

/** A Warsaw wall time as an instant string: +01:00 from November to March, +02:00 else (none of the stretches crosses a change). */
function warsaw(wall: string): string {
  const month = Number(wall.slice(5, 7));
  return `${wall}${month >= 4 && month <= 10 ? '+02:00' : '+01:00'}`;
}

/** The median of five readings of the heap and RSS, each after a settle (real time) and a full collection. */
async function rssAndHeap(): Promise<{ heapMB: number; rssMB: number }> {
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

export async function year(changeFeed: boolean): Promise<YearResult> {
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
    changeFeedGranted: changeFeed,
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
    onSpanEnd: async (index, recorder) => {
      const events: Record<string, number> = {};
      for (const [kind, n] of recorder.eventsByKind) if (n !== (before.get(kind) ?? 0)) events[kind] = n - (before.get(kind) ?? 0);
      before = new Map(recorder.eventsByKind);
      const stretch = STRETCHES[index]!;
      months.push({ month: stretch.month, stretch: stretch.stretch, ...(await rssAndHeap()), events, nightReads });
      nightReads = 0;
    },
  });
  return { changeFeed, realMs: r.realMs, months, cpuPassMs: passes === 0 ? 0 : cpu / passes / 1000 };
}
