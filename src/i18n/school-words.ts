// Words of the school's own records that a state shows beside the portal's text, once per language:
// a behaviour grade that is only proposed, a points school's points.
import type { Language } from '../config/language.js';

export const BEHAVIOUR_WORDS: Readonly<Record<Language, { proposal: string; points: string }>> = {
  pl: { proposal: 'propozycja', points: 'pkt' },
  en: { proposal: 'proposal', points: 'points' },
  uk: { proposal: 'пропозиція', points: 'бали' },
};
