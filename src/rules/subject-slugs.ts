// Entity keys for per-subject entities: a subject's name slugged to [a-z0-9_] with Polish letters
// folded, made unique per child, and kept for a subject id once given so that a key never moves.
import { fold, idCompare } from './order.js';

/** "Język polski" -> "jezyk_polski"; empty when nothing of the name is a letter or digit. */
export function slugify(name: string): string {
  return fold(name)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export interface NamedSubject {
  id: string;
  /** null when the school gave the subject no name. */
  name: string | null;
}

/**
 * A slug for each subject. A subject already remembered keeps its slug; the others, taken in the order
 * of their ids (so a restart without the memory gives the same answer), get their name's slug, or
 * `subject_<id>` when the name has none, with `_2`, `_3`... when another subject holds it already.
 */
export function assignSlugs(subjects: readonly NamedSubject[], remembered: Readonly<Record<string, string>> = {}): Map<string, string> {
  const slugs = new Map<string, string>();
  const taken = new Set<string>();
  for (const s of subjects) {
    const kept = remembered[s.id];
    if (kept !== undefined && !taken.has(kept)) {
      slugs.set(s.id, kept);
      taken.add(kept);
    }
  }
  // Slugs of remembered subjects absent now stay reserved: the subject may come back.
  for (const [id, slug] of Object.entries(remembered)) if (!slugs.has(id)) taken.add(slug);
  const fresh = subjects.filter((s) => !slugs.has(s.id)).sort((a, b) => idCompare(a.id, b.id));
  for (const s of fresh) {
    const base = slugify(s.name ?? '') || `subject_${slugify(s.id) || 'unknown'}`;
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}_${n}`;
    slugs.set(s.id, slug);
    taken.add(slug);
  }
  return slugs;
}
