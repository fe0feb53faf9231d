// What Assist asks of the attendance (interface 17.1): the semester's share and counts, each subject's, the
// unexcused absences still to excuse (of the last days when asked) and the justifications sent with their status.
// From the attendance's own view of the semester.
import type { SemesterAttendance } from '../../rules/attendance.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { JUSTIFICATION_WORDS } from '../../i18n/school-words.js';
import { addDays } from '../../util/time.js';
import { dayShort } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the attendance's view: null while the marks (or their kinds) are not known. */
export interface AttendanceAsk {
  semester: SemesterAttendance | null;
  /** Whether the justifications were read (none read is not "none sent"). */
  justificationsKnown: boolean;
  /** The portal refuses the child's account the attendance (a kindergarten): nothing to tell. */
  absent: boolean;
}

function attendance(facts: AttendanceAsk, asked: { days: number | null }, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].attendance;
  const unknown = ASK_TEXT[c.language].common.unknown;
  const text = BOARD_TEXT[c.language];
  const a = facts.semester;
  if (facts.absent) return [];
  if (a === null)
    return [
      { title: w.attendance, lines: null },
      { title: w.toExcuse, lines: null },
    ];
  const since = asked.days === null ? null : addDays(c.clock.today, 1 - asked.days);
  const toExcuse = a.unexcused.filter((u) => since === null || (u.date !== null && u.date >= since));
  const j = a.justifications;
  return [
    {
      title: w.attendance,
      lines: [
        joinedFacts([
          `${w.present}: ${a.attendancePercent === null ? unknown : text.percent(a.attendancePercent)}`,
          `${w.unexcused}: ${a.unexcused.length}`,
          `${w.excused}: ${a.excused}`,
          `${w.late}: ${a.late}`,
        ]),
      ],
    },
    {
      title: w.bySubject,
      lines: a.bySubject.map((s) =>
        joinedFacts([
          s.subject ?? unknown,
          s.percent === null ? null : text.percent(s.percent),
          s.absent > 0 ? `✗ ${s.absent}` : null,
          s.late > 0 ? `${w.late}: ${s.late}` : null,
        ]),
      ),
    },
    {
      title: `${w.toExcuse}${asked.days === null ? '' : ` ${w.ofDays(asked.days)}`}`,
      lines: toExcuse.map((u) =>
        joinedFacts([
          u.date === null ? unknown : `${dayShort(u.date, c.clock, text)} (${u.date})`,
          u.lessonNo === null ? null : w.lesson(u.lessonNo),
          u.subject,
        ]),
      ),
    },
    {
      title: w.justifications,
      lines: !facts.justificationsKnown
        ? null
        : j.latest.map((l) =>
            joinedFacts([
              l.from === null ? null : l.to !== null && l.to !== l.from ? `${l.from} – ${l.to}` : l.from,
              JUSTIFICATION_WORDS[c.language][l.status],
            ]),
          ),
    },
  ];
}

export const attendanceAsk: AskPart<AttendanceAsk> = { unknown: { semester: null, justificationsKnown: false, absent: false }, attendance };
