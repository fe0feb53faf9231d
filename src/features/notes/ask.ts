// What Assist asks of the notes (interface 17.1): the school year's notes, the newest 20, each with its day, kind,
// teacher and text. From the notes' own view of every note.
import type { NoteFacts } from '../../rules/notes.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { dayShort, spaced } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the notes: every note, newest first; null while the notes are not known; absent where refused. */
export type NotesAsk = { notes: readonly NoteFacts[] | null; absent: boolean };

/** The newest notes told. */
const TOLD = 20;

function behaviour(facts: NotesAsk, c: AskContext): Told[] {
  // The portal refuses the child's account the notes (a kindergarten): nothing to tell.
  if (facts.absent) return [];
  const w = ASK_TEXT[c.language];
  const text = BOARD_TEXT[c.language];
  return [
    {
      title: w.behaviour.notes,
      lines:
        facts.notes
          ?.slice(0, TOLD)
          .map((n) =>
            joinedFacts([
              n.date && `${dayShort(n.date, c.clock, text)} (${n.date})`,
              n.kind && w.behaviour.kinds[n.kind],
              n.category,
              n.teacher && `${w.common.teacher}: ${n.teacher}`,
              spaced(n.text),
            ]),
          ) ?? null,
    },
  ];
}

export const notesAsk: AskPart<NotesAsk> = { unknown: { notes: null, absent: false }, behaviour };
