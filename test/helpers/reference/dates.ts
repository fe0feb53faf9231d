// Days and hours of the school's calendar, in Warsaw, by the reference's own hand (it borrows no date code of the
// bridge): a date as YYYY-MM-DD, an hour as HH:MM.
const DAY = 86_400_000;
const WARSAW = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The Warsaw date and hour of an instant. */
export function warsaw(ms: number): { date: string; time: string } {
  const [date = '', time = ''] = WARSAW.format(new Date(ms)).split(' ');
  return { date, time };
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** 1 for Monday to 7 for Sunday. */
export function weekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

export function mondayOf(date: string): string {
  return addDays(date, 1 - weekday(date));
}

/** The instant (ISO, UTC) of a Warsaw date and hour: the one of Warsaw's two offsets that reads back as it. */
export function warsawInstant(date: string, time: string): string {
  for (const offset of [1, 2]) {
    const ms = Date.parse(`${date}T${time}:00Z`) - offset * 3_600_000;
    const back = warsaw(ms);
    if (back.date === date && back.time === time) return new Date(ms).toISOString();
  }
  return `${date}T${time}`;
}

/** An hour as the portal writes it ("08:00:00", "8:00") as HH:MM; null for anything else. */
export function hourOf(value: unknown): string | null {
  const match = typeof value === 'string' ? /^(\d{1,2}):(\d{2})/.exec(value) : null;
  return match ? `${match[1]!.padStart(2, '0')}:${match[2]}` : null;
}
