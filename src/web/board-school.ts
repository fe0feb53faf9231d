// The school's own things on a child's card, under the school's name: the behaviour grade, the semester's
// attendance with each subject's (lowest first), the class tutor, the newest message sent from the child's
// account with whether it was read, and the school's newest files (a saved one is a link).
// Read leniently from the published states, like the rest of the board.
import type { Received } from '../feature-kit/contract.js';
import type { attendanceShare } from '../features/attendance/attendance.js';
import type { behaviourEntity } from '../features/behaviour/behaviour.js';
import type { schoolEntity } from '../features/school-year/school-year.js';
import type { BoardText } from '../i18n/board-text.js';
import type { sentMessageEntity } from '../features/sent-message/sent-message.js';
import type { schoolFilesEntity } from '../features/school-files/school-files.js';
import { list, num, savedFiles, str } from './board-read.js';

export interface BoardSchool {
  /** The school's name, the box's heading; null while not known. */
  name: string | null;
  behaviour: string | null;
  /** This semester's attendance in words; null before the first mark. */
  attendance: string | null;
  /** Each subject's attendance this semester, the lowest first (as `attendance` lists them). */
  bySubject: Array<{ subject: string; percent: string }>;
  /** The class tutor's name; null while not known. */
  tutor: string | null;
  /** The newest sent message: read by every receiver, or not yet. */
  sent: { topic: string; read: boolean } | null;
  /** /files/<c>/school/<id>/<name> when saved, else null. */
  files: Array<{ name: string; url: string | null }>;
}

const SHOWN_FILES = 3;

export function schoolOf(
  behaviour: Received<typeof behaviourEntity> | undefined,
  sent: Received<typeof sentMessageEntity> | undefined,
  files: Received<typeof schoolFilesEntity> | undefined,
  attendance: Received<typeof attendanceShare> | undefined,
  school: Received<typeof schoolEntity> | undefined,
  text: BoardText,
): BoardSchool {
  const topic = str(sent?.state);
  const share = num(Number(str(attendance?.state) ?? NaN));
  return {
    name: str(school?.attributes?.school),
    behaviour: str(behaviour?.state),
    attendance: share === null ? null : `${text.attendance} ${text.percent(share)}`,
    bySubject: list(attendance?.attributes?.by_subject).flatMap((s) => {
      const subject = str(s.subject);
      const percent = num(s.percent);
      return subject === null || percent === null ? [] : [{ subject, percent: text.percent(percent) }];
    }),
    tutor: str(school?.attributes?.tutor),
    sent: topic === null ? null : { topic, read: sent?.attributes?.read_by_all === true },
    files: savedFiles(files?.attributes?.files, 'school').slice(0, SHOWN_FILES),
  };
}
