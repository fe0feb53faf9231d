// The school's shared files (spec 2.8, SchoolFiles): newest first, and one piece of news per file
// the family has not seen.
import type { SchoolFile } from '../portal/schemas/agenda.js';
import { dayOf, timeKey } from './portal-values.js';
import type { NewsItem } from './news.js';
import { textCompare } from './order.js';

export type SchoolFileItem = ReturnType<typeof schoolFiles>[number];

/** Every file, newest first (by when it was added; the higher id first on a tie). */
export function schoolFiles(files: readonly SchoolFile[]) {
  return files
    .map((f) => ({
      id: f.id,
      name: f.displayName?.trim() || `plik-${f.id}`,
      /** YYYY-MM-DD. */
      date: dayOf(f.addedOnDate) ?? null,
      /** When the school added it, as the portal gives it. */
      added: f.addedOnDate?.trim() ?? null,
      /** Its web path on the portal (spec 4.6 downloads it); null when the portal gives none. */
      downloadUrl: f.downloadUrl?.trim() || null,
    }))
    .sort((a, b) => textCompare(timeKey(b.added ?? undefined), timeKey(a.added ?? undefined)) || Number(b.id) - Number(a.id));
}

/** What a `school_file` event carries: the file's id, name and date. */
export type SchoolFilePayload = { id: SchoolFileItem['id']; name: SchoolFileItem['name']; date: SchoolFileItem['date'] };

/** One candidate per file: the seen memory fires only those it has not announced. */
export function schoolFileEvents(items: readonly SchoolFileItem[]): NewsItem<SchoolFilePayload>[] {
  return items.map((f) => ({ id: `school_file:${f.id}`, payload: { id: f.id, name: f.name, date: f.date } }));
}
