// What Assist asks of the school's files (interface 17.1): each file's name and the day it was added, newest first.
// From the feature's own view of the files.
import type { SchoolFileItem } from '../../rules/school-files.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import type { AskContext, AskPart, Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the school's files: every file, newest first; null while they are not known, absent where refused. */
export type SchoolFilesAsk = { files: readonly SchoolFileItem[] | null; absent: boolean };

/** The newest files told. */
const TOLD = 20;

function school(facts: SchoolFilesAsk, c: AskContext): Told[] {
  // The portal refuses the child's account the files (a kindergarten): nothing to tell.
  if (facts.absent) return [];
  return [
    {
      title: ASK_TEXT[c.language].school.files,
      lines: facts.files?.slice(0, TOLD).map((f) => (f.date === null ? f.name : `${f.name} (${f.date})`)) ?? null,
    },
  ];
}

export const schoolFilesAsk: AskPart<SchoolFilesAsk> = { unknown: { files: null, absent: false }, school };
