// The school year in Home Assistant's long-term statistics (interface 16.3): a sink of the bus that takes
// each child's figures of the year as a pass's features publish them and, once the pass is over, imports through Home
// Assistant's WebSocket (`recorder/import_statistics`, external statistics of source dziennik2mqtt) the rows
// of the days whose figure is not yet there as it stands now: the whole year after the first pass that has
// the grades, then only the days that moved (a back-dated grade rewrites from its day on), nothing after a
// restart. What was imported is kept in data_dir. A WebSocket that is away is a log line, a named fault in
// the diagnostics and a retry later; MQTT and everything else go on.
import type { ChildYear, Sink } from '../../../bus/bus.js';
import type { HomeAssistantConfig } from '../../../config/schema.js';
import { MINUTE } from '../../../util/duration.js';
import { isoAt, warsawDate } from '../../../util/time.js';
import { errorText } from '../../../util/text.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/log.js';
import { problemAfter } from '../client.js';
import { LookLoop } from '../look-loop.js';
import { HaSocket, socketUrl } from './socket.js';
import { keptDays, keptFigures, StatisticsFile, type StatisticsImported } from './imported.js';
import { yearStatistics, type StatisticMetadata, type YearStatistic } from './year.js';

export interface StatisticsOptions {
  config: HomeAssistantConfig;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** Each wait on the WebSocket (connecting, authenticating, a command); 30 s by default. */
  timeoutMs?: number;
}

/** One import: a statistic's metadata and the rows of the days that moved. */
export interface StatisticImport {
  metadata: StatisticMetadata;
  stats: { start: string; mean: number; min: number; max: number }[];
}

/** The first wait after a failure, doubled after each one in a row, up to the longest. */
const RETRY = { first: MINUTE, longest: 30 * MINUTE };

/**
 * The imports that bring Home Assistant's rows to the year as it stands: a statistic new or renamed whole,
 * else the days whose figure differs from the one kept (one row a day, at the day's local midnight).
 */
export function importsOf(statistics: readonly YearStatistic[], imported: StatisticsImported): StatisticImport[] {
  return statistics.flatMap((statistic) => {
    const { metadata, days } = statistic;
    const kept = imported.statistics[metadata.statistic_id];
    const same = kept !== undefined && kept.name === metadata.name && kept.unit === metadata.unit_of_measurement;
    const figures = same ? keptFigures(kept) : new Map<string, number>();
    const stats = Object.entries(days)
      .filter(([day, value]) => figures.get(day) !== value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, value]) => ({ start: isoAt(day, '00:00'), mean: value, min: value, max: value }));
    return stats.length === 0 ? [] : [{ metadata, stats }];
  });
}

export class HomeAssistantStatistics extends LookLoop implements Sink {
  private readonly file: StatisticsFile;
  private imported: StatisticsImported = { statistics: {} };
  /** Each child's series as the passes last published them (each feature's may come in a different pass). */
  private readonly years = new Map<string, ChildYear>();
  /** The children whose series came since their last import. */
  private readonly moved = new Set<string>();
  private readonly counts = { rows: 0, calls: 0, day: '', callsToday: 0 };

  constructor(private readonly options: StatisticsOptions) {
    // One import at a time, tried again after a failure; its stop closes the connection in flight (interface 16.1).
    super({ clock: options.clock, backoff: RETRY });
    this.file = new StatisticsFile(options.dataDir);
  }

  /** A sink of the bus: a child's figures of the year, as a pass's features computed them. */
  year(childId: string, year: ChildYear): void {
    this.years.set(childId, { name: year.name, series: { ...this.years.get(childId)?.series, ...year.series } });
    this.moved.add(childId);
  }

  /** The pass is over: what it moved is imported. */
  passed(childId: string): void {
    if (this.moved.has(childId)) this.nudge();
  }

  removed(childId: string): void {
    this.years.delete(childId);
    this.moved.delete(childId);
  }

  override async start(): Promise<void> {
    this.imported = await this.file.load((error) =>
      this.options.log.warn({ err: error.message }, "what was imported into Home Assistant's statistics could not be read back"),
    );
    await super.start();
  }

  /** The diagnostics' part: whether the WebSocket answers (or its fault, since when), the statistics kept, rows written and calls made. */
  status(): Record<string, unknown> {
    const problem = this.imported.problem;
    return {
      websocket: problem === undefined ? 'ok' : problem.fault,
      ...(problem ? { error: problem.message } : {}),
      statistics: Object.keys(this.imported.statistics).length,
      rows_written: this.counts.rows,
      calls: this.counts.calls,
      calls_today: this.counts.day === warsawDate(this.options.clock.now()) ? this.counts.callsToday : 0,
      ...this.retryStatus(),
    };
  }

  private count(): void {
    const day = warsawDate(this.options.clock.now());
    if (day !== this.counts.day) Object.assign(this.counts, { day, callsToday: 0 });
    this.counts.calls++;
    this.counts.callsToday++;
  }

  protected async look(signal: AbortSignal): Promise<void> {
    const children = [...this.moved];
    const imports = children.flatMap((child) => {
      const year = this.years.get(child);
      return year ? importsOf(yearStatistics(child, year), this.imported) : [];
    });
    if (imports.length > 0) await this.send(imports, signal);
    for (const child of children) this.moved.delete(child);
    await this.recovered();
  }

  /** One connection for the batch: each statistic imported, then kept as Home Assistant now has it. */
  private async send(imports: readonly StatisticImport[], signal: AbortSignal): Promise<void> {
    const { config } = this.options;
    const socket = await HaSocket.open({
      url: socketUrl(config.url),
      token: config.token ?? '',
      timeoutMs: this.options.timeoutMs,
      onCall: () => this.count(),
      signal,
    });
    try {
      for (const { metadata, stats } of imports) {
        await socket.call({ type: 'recorder/import_statistics', metadata, stats });
        this.counts.rows += stats.length;
        this.keep(metadata, stats);
        await this.save();
      }
      const rows = imports.reduce((sum, i) => sum + i.stats.length, 0);
      this.options.log.info({ statistics: imports.length, rows }, "the school year imported into Home Assistant's statistics");
    } finally {
      socket.close();
    }
  }

  /** A statistic's rows as Home Assistant holds them now: the kept days with the imported ones over them. */
  private keep(metadata: StatisticMetadata, stats: StatisticImport['stats']): void {
    const id = metadata.statistic_id;
    const kept = this.imported.statistics[id];
    const same = kept !== undefined && kept.name === metadata.name && kept.unit === metadata.unit_of_measurement;
    const days = Object.fromEntries(same ? keptFigures(kept) : []);
    for (const row of stats) days[warsawDate(Date.parse(row.start))] = row.mean;
    const next = keptDays(days, metadata.name, metadata.unit_of_measurement);
    if (next) this.imported.statistics[id] = next;
  }

  private save(): Promise<void> {
    return this.file
      .save(this.imported)
      .catch((error: unknown) => this.options.log.warn({ err: errorText(error) }, 'cannot keep what was imported into the statistics in data_dir'));
  }

  private async recovered(): Promise<void> {
    if (this.imported.problem === undefined) return;
    this.options.log.info("Home Assistant's WebSocket answers again");
    delete this.imported.problem;
    await this.save();
  }

  /** A log line when the fault is new, and the reason kept for the diagnostics. */
  protected async failed(error: unknown, wait: number): Promise<undefined> {
    const { problem, fresh } = problemAfter(this.imported.problem, error, this.options.clock.now());
    if (fresh) {
      this.options.log.warn(
        { fault: problem.fault, err: problem.message, retry_in_minutes: wait / MINUTE },
        "Home Assistant's WebSocket failed: the school year's statistics wait",
      );
    }
    this.imported.problem = problem;
    await this.save();
    return undefined;
  }
}
