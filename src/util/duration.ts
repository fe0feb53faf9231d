// Durations as written in the config: 90s, 3m, 1h, 1h30m (a bare number is seconds), and the units the
// code writes its own in (the one place they are defined).

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/**
 * A day, a little under it so that it falls on a pass of the day before: the age of a lookup read once a
 * day (engine/resources/ages.ts), and how long a module must have been refused to be absent (features/kit/modules.ts).
 */
export const DAILY = DAY - 10 * MINUTE;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE, h: HOUR, d: DAY };

export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(trimmed); m; m = re.exec(trimmed)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    matched = re.lastIndex;
  }
  return matched === trimmed.length && matched > 0 ? Math.round(total) : undefined;
}

export function formatDuration(ms: number): string {
  if (ms % HOUR === 0) return `${ms / HOUR}h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE}m`;
  return `${Math.round(ms / 1000)}s`;
}
