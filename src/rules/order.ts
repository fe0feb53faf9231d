// How names compare and sort, without ICU collation: folded for matching the words schools type, and sort orders. Any Intl.Collator or String#localeCompare makes node load ICU's
// collation data (and check every locale's collation bundle) for the life of the process, about
// 3 MB of RSS (see `npm run bench`), for lists whose keys are ASCII (dates, ids) or Polish names.

/** Code-unit order: for keys ASCII by construction (ISO dates and times, ids, slugs). */
export function textCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Numeric-aware order of ids: digit runs compare as numbers ('grade:9' before 'grade:10'), the rest
 * by code unit, as the `numeric` collation orders ids of lower-case letters, digits and ':'.
 */
export function idCompare(a: string, b: string): number {
  const left = a.match(/\d+|\D+/g) ?? [];
  const right = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    if (isDigits(x) && isDigits(y)) {
      const p = x.replace(/^0+/, '');
      const q = y.replace(/^0+/, '');
      if (p.length !== q.length) return p.length - q.length;
      if (p !== q) return textCompare(p, q);
      continue;
    }
    return textCompare(x, y);
  }
  return left.length - right.length || textCompare(a, b);
}

function isDigits(chunk: string): boolean {
  return chunk.charCodeAt(0) >= 48 && chunk.charCodeAt(0) <= 57;
}

/** The Polish alphabet in its order: a letter with an ogonek, acute or dot is a letter of its own. */
const POLISH_ALPHABET = 'aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż';
const LETTER_RANK = new Map([...POLISH_ALPHABET].map((letter, i) => [letter, i]));

/**
 * Polish alphabetical order, for lists a parent reads (subjects): letters case-blind in the Polish
 * alphabet ('Ł' after 'l', 'ż' last), other accented letters as their base letter (é as e), spaces and
 * punctuation before digits before letters; ties broken by accents, then lower case first.
 */
export function plCompare(a: string, b: string): number {
  const x = weightsOf(a);
  const y = weightsOf(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const diff = x[i]! - y[i]!;
    if (diff !== 0) return diff;
  }
  return x.length - y.length || textCompare(a.toLowerCase(), b.toLowerCase()) || lowerFirst(a, b);
}

/**
 * Each name's primary weights, by the name: a sort compares the same names again and again (a pass sorts its subjects,
 * categories and plan rows many times), and weighing their letters was most of the sort. Forgotten whole when full.
 */
const weighed = new Map<string, readonly number[]>();
const WEIGHED_KEPT = 4_096;

function weightsOf(name: string): readonly number[] {
  let weights = weighed.get(name);
  if (weights === undefined) {
    weights = [...name.toLowerCase()].map(primaryWeight);
    if (weighed.size >= WEIGHED_KEPT) weighed.clear();
    weighed.set(name, weights);
  }
  return weights;
}

/** Separators, then digits, then letters; a character of another script after all of those. */
function primaryWeight(char: string): number {
  const rank = LETTER_RANK.get(char) ?? LETTER_RANK.get(char.normalize('NFD').charAt(0));
  if (rank !== undefined) return 2_000 + rank;
  if (char >= '0' && char <= '9') return 1_000 + char.charCodeAt(0);
  if (/[\p{L}\p{N}]/u.test(char)) return 3_000 + (char.codePointAt(0) ?? 0);
  return char.codePointAt(0) ?? 0;
}

/** Of two strings equal but for case, the one whose first differing letter is lower case comes first. */
function lowerFirst(a: string, b: string): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    return a[i] === a[i]!.toLowerCase() ? -1 : 1;
  }
  return textCompare(a, b);
}

/**
 * What fold answered, by what it was given: a pass folds the same few hundred names (subjects, categories,
 * statuses) thousands of times (each lesson of a timetable matched against each subject's realizations), and the
 * decomposition and its regular expression were a tenth of a simulated day's CPU. Forgotten whole when full.
 */
const folded = new Map<string, string>();
const FOLDED_KEPT = 4_096;

/** Lower case without Polish diacritics, for matching words in names the schools type themselves. */
export function fold(value: string | undefined): string {
  const text = value ?? '';
  let out = folded.get(text);
  if (out === undefined) {
    out = text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l');
    if (folded.size >= FOLDED_KEPT) folded.clear();
    folded.set(text, out);
  }
  return out;
}

/** Whether two subject names are the same subject, as schools type them (case and diacritics aside); unknown is none. */
export const sameSubject = (a: string | null, b: string | null): boolean => a !== null && b !== null && fold(a) === fold(b);
