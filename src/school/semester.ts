// Which semester a day belongs to: by the class's EndFirstSemester when known, otherwise by the usual
// Polish calendar (the first semester runs September to January).

export type Semester = 1 | 2;

export function semesterOf(date: string, endFirstSemester?: string): Semester {
  const end = endFirstSemester?.slice(0, 10);
  if (end !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(end)) return date.slice(0, 10) <= end ? 1 : 2;
  const month = Number(date.slice(5, 7));
  return month >= 2 && month <= 8 ? 2 : 1;
}

/** A record's semester: its own Semester field when it says 1 or 2, else from its date. */
export function recordSemester(semester: number | undefined, date: string | undefined, endFirstSemester?: string): Semester | undefined {
  if (semester === 1 || semester === 2) return semester;
  return date === undefined ? undefined : semesterOf(date, endFirstSemester);
}
