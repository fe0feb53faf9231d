// What the bridge imported into Home Assistant's statistics, kept in data_dir/homeassistant-statistics.json:
// each statistic's name, unit and figure of each day as Home Assistant holds it, so that a pass imports only
// the days whose figure moved (a restart, nothing), and the last fault of the WebSocket (for the diagnostics).
import { join } from 'node:path';
import * as z from 'zod';
import { peekStored, readStored } from '../../../util/stored.js';
import { SteadyFile } from '../../../util/files.js';
import { addDays } from '../../../util/time.js';
import type { HaFault } from '../../../i18n/homeassistant-text.js';

export const STATISTICS_FILE = 'homeassistant-statistics.json';

/** A statistic as imported: its name and unit, and its figures day by day from `first` (null: no row that day). */
const importedSchema = z.object({
  name: z.string(),
  unit: z.string().nullable(),
  first: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  values: z.array(z.number().nullable()),
});
export type Imported = z.output<typeof importedSchema>;

const fileSchema = z.object({
  version: z.literal(1),
  statistics: z.record(z.string(), importedSchema),
  problem: z.object({ fault: z.string(), since: z.number(), message: z.string() }).optional(),
});

export type StatisticsImported = { statistics: Record<string, Imported>; problem?: { fault: HaFault; since: number; message: string } };

/** A statistic's days as kept: from its first day, a figure or null for each. */
export function keptDays(days: Readonly<Record<string, number>>, name: string, unit: string | null): Imported | undefined {
  const sorted = Object.keys(days).sort();
  const first = sorted[0];
  const last = sorted.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const values: (number | null)[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) values.push(days[day] ?? null);
  return { name, unit, first, values };
}

/** A kept statistic's figures by day. */
export function keptFigures(kept: Imported): Map<string, number> {
  const figures = new Map<string, number>();
  let day = kept.first;
  for (const value of kept.values) {
    if (value !== null) figures.set(day, value);
    day = addDays(day, 1);
  }
  return figures;
}

export class StatisticsFile {
  private readonly file: SteadyFile;

  constructor(dataDir: string) {
    this.file = new SteadyFile(join(dataDir, STATISTICS_FILE), { durable: true });
  }

  async load(onBroken?: (error: Error) => void): Promise<StatisticsImported> {
    return ((await readStored(this.file.path, fileSchema, { onBroken })) as StatisticsImported | undefined) ?? { statistics: {} };
  }

  save(imported: StatisticsImported): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, ...imported })}\n`);
  }
}

/** What a running (or the last) bridge imported, read without moving anything (`check`, `diagnostics`). */
export async function peekStatistics(dataDir: string): Promise<StatisticsImported> {
  return ((await peekStored(join(dataDir, STATISTICS_FILE), fileSchema)) as StatisticsImported | undefined) ?? { statistics: {} };
}
