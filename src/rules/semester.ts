// Which semester a day belongs to: by the class's EndFirstSemester when it is of that day's school year,
// otherwise by the usual Polish calendar (the first semester runs September to January). The portal may
// keep answering an ended year's dates for days after 1 September (live-notes 39): those dates say
// nothing of the new year, whose September is its first semester.

export type Semester = 1 | 2;

/** The school year (1 September to 31 August) a day is in, named by the year it starts. */
function schoolYearOf(date: string): number {
  const year = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= 9 ? year : year - 1;
}

export function semesterOf(date: string, endFirstSemester?: string): Semester {
  const end = endFirstSemester?.slice(0, 10);
  const day = date.slice(0, 10);
  if (end !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(end) && schoolYearOf(end) === schoolYearOf(day)) return day <= end ? 1 : 2;
  const month = Number(date.slice(5, 7));
  return month >= 2 && month <= 8 ? 2 : 1;
}

/** A record's semester: its own Semester field when it says 1 or 2, else from its date. */
export function recordSemester(semester: number | undefined, date: string | undefined, endFirstSemester?: string): Semester | undefined {
  if (semester === 1 || semester === 2) return semester;
  return date === undefined ? undefined : semesterOf(date, endFirstSemester);
}
