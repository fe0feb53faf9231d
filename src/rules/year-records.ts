// The school year's records as a pass holds them, for what rebuilds the year day by day (Home Assistant's
// long-term statistics): the inputs of the average and attendance sensors, without the semester (each day
// has its own), so that a day's figure is the sensors' own rule applied to the records of that day.
import type { AverageInput } from './averages.js';
import type { AttendanceInput } from './attendance.js';

export interface YearRecords {
  /** The child's first name, as its device and statistics are named. */
  name: string;
  /** The school year's first day, as the portal gives it. */
  begins: string | undefined;
  /** The grades and what averages them; `slugs` the subjects' keys, as their sensors have them (`average_<slug>`). */
  grades?: { input: Omit<AverageInput, 'semester'>; slugs: Readonly<Record<string, string>> };
  /** The attendance marks and their types. */
  attendance?: Omit<AttendanceInput, 'semester'>;
}

/** What one feature's computation adds to the year's records (the grades, the attendance). */
export type YearPart = Partial<Pick<YearRecords, 'grades' | 'attendance'>>;
