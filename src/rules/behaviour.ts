// The formal behaviour grade (spec 2.4, BehaviourGrades/Points) as a parent reads it: the newest
// grade in words ("bardzo dobre"), whether it is only a proposal, and the semester's and the year's
// grades and proposals beside it. A points school has no such grade: its child's points are the sum
// of the semester's entries.
import type { BehaviourCategory, BehaviourComment, BehaviourGrade, BehaviourType } from '../portal/schemas/behaviour.js';
import { byId, dayOf, timeKey } from './portal-values.js';
import { fold, textCompare } from './order.js';
import type { NewsItem } from './news.js';
import { commentIndex, commentText, plNumber } from './grade-item.js';
import type { Names } from './names.js';
import { recordSemester, type Semester } from './semester.js';

/** The classic scale's words, used when BehaviourGrades/Types is missing (spec 2.4's mapping). */
const CLASSIC_WORDS: Record<string, { short: string; name: string }> = {
  '1': { short: 'wz', name: 'wzorowe' },
  '2': { short: 'bdb', name: 'bardzo dobre' },
  '3': { short: 'db', name: 'dobre' },
  '4': { short: 'popr', name: 'poprawne' },
  '5': { short: 'ndp', name: 'nieodpowiednie' },
  '6': { short: 'ng', name: 'naganne' },
};

/** One formal grade: what it says, which period it closes, and whether it is only proposed. */
export interface BehaviourMark {
  /** The grade in words ("bardzo dobre"), else its short form. */
  grade: string;
  /** The short form ("bdb") when known. */
  short: string | null;
  period: 'semester' | 'final';
  proposal: boolean;
  semester: Semester | null;
  /** YYYY-MM-DD. */
  date: string | null;
  teacher: string | null;
  category: string | null;
}

export interface BehaviourInput {
  grades: readonly BehaviourGrade[];
  types?: readonly BehaviourType[];
  categories?: readonly BehaviourCategory[];
  comments?: readonly BehaviourComment[];
  names: Names;
  today: string;
  endFirstSemester?: string;
}

/** The category's words decide where a record says nothing: "propozycja" / "przewidywana", "roczna" / "końcowa". */
function periodOf(g: BehaviourGrade, category: string | undefined): { period: 'semester' | 'final'; proposal: boolean } {
  const words = fold(category);
  // "śródroczna" (mid-year) holds "roczna" (yearly): only the word standing alone means the year.
  const yearly = /(^|[^a-z])(roczn|koncow)/.test(words.replace(/srodroczn/g, ''));
  const proposal = g.IsProposal === true || /propozyc|przewidywan/.test(words);
  return { period: g.IsFinal === true || (g.IsSemester !== true && yearly) ? 'final' : 'semester', proposal };
}

/** What every entry says alike: its semester, day, teacher and category. */
type EntryFacts = Pick<BehaviourMark, 'semester' | 'date' | 'teacher' | 'category'>;

/** The entries newest first, with their facts and a classic grade's mark (null for a points entry or one with nothing to show). */
function readEntries(input: BehaviourInput): { entry: BehaviourGrade; facts: EntryFacts; mark: BehaviourMark | null }[] {
  const types = byId(input.types);
  const categories = byId(input.categories);
  const newestFirst = [...input.grades].sort(
    (a, b) => textCompare(timeKey(b.AddDate ?? b.Date), timeKey(a.AddDate ?? a.Date)) || Number(b.Id) - Number(a.Id),
  );
  return newestFirst.map((g) => {
    const category = g.Category === undefined ? undefined : categories.get(g.Category)?.Name?.trim();
    const facts: EntryFacts = {
      semester: recordSemester(g.Semester, dayOf(g.AddDate ?? g.Date), input.endFirstSemester) ?? null,
      date: dayOf(g.Date ?? g.AddDate) ?? null,
      teacher: input.names.teacher(g.AddedBy),
      category: category ?? null,
    };
    const words = g.Value === undefined ? markWords(g, types) : null;
    return { entry: g, facts, mark: words && { ...words, ...periodOf(g, category), ...facts } };
  });
}

export type Behaviour = ReturnType<typeof behaviour>;

/** Every classic grade and proposal of the lists, newest first (none at a points school). */
export function behaviourMarks(input: BehaviourInput): BehaviourMark[] {
  return marksOf(readEntries(input));
}

const marksOf = (entries: ReturnType<typeof readEntries>): BehaviourMark[] => entries.flatMap((e) => (e.mark === null ? [] : [e.mark]));

/** A grade of "wzorowe" (exemplary), by its short form or its words. */
export const isExemplary = (mark: Pick<BehaviourMark, 'grade' | 'short'>): boolean =>
  fold(mark.short ?? '') === 'wz' || /^wzorow/.test(fold(mark.grade));

/** A grade of "bardzo dobre" (very good) or better: what honours asks of the behaviour. */
export const atLeastVeryGood = (mark: Pick<BehaviourMark, 'grade' | 'short'>): boolean =>
  isExemplary(mark) || fold(mark.short ?? '') === 'bdb' || /^bardzo dobr/.test(fold(mark.grade));

export function behaviour(input: BehaviourInput) {
  const currentSemester = recordSemester(undefined, input.today, input.endFirstSemester) ?? 1;
  const entries = readEntries(input);
  const pointsEntries = entries.filter((e) => e.entry.Value !== undefined);
  const marks = marksOf(entries);
  const find = (period: BehaviourMark['period'], proposal: boolean): BehaviourMark | null =>
    marks.find(
      (m) => m.period === period && m.proposal === proposal && (period === 'final' || m.semester === null || m.semester === currentSemester),
    ) ?? null;
  const pointsNow = pointsEntries.filter((e) => (e.facts.semester ?? currentSemester) === currentSemester);
  return {
    /** The newest formal grade (a proposal too); null at a points school or before the first. */
    newest: marks[0] ?? null,
    semester: find('semester', false),
    semesterProposal: find('semester', true),
    final: find('final', false),
    finalProposal: find('final', true),
    /** A points school: the sum of this semester's points (null where the school grades on the scale). */
    points: pointsEntries.length === 0 ? null : pointsNow.reduce((sum, e) => sum + (e.entry.Value ?? 0), 0),
    /** The semester the points and the current grades are of. */
    currentSemester,
  };
}

/** A classic grade's words: ShortName/Text when the school fills them, else the type it points at. */
function markWords(g: BehaviourGrade, types: Map<string, BehaviourType>): { grade: string; short: string | null } | null {
  const short = g.ShortName?.trim();
  const text = g.Text?.trim();
  if (short || text) return { grade: text || short || '', short: short || null };
  if (g.BehaviourGrade === undefined) return null;
  const type = types.get(g.BehaviourGrade);
  const known = CLASSIC_WORDS[g.BehaviourGrade];
  const name = type?.Name?.trim() || known?.name;
  const shortcut = type?.Shortcut?.trim() || known?.short || null;
  return name ? { grade: name, short: shortcut } : shortcut ? { grade: shortcut, short: shortcut } : null;
}

/**
 * What a `behaviour_grade` event carries: one entry of BehaviourGrades/Points, a classic grade (or its
 * proposal) or a points school's entry; never a subject grade. A points entry's `grade` is its points
 * ("15 pkt", "-5 pkt") and its `short` its ShortName.
 */
export type BehaviourPayload = Omit<BehaviourMark, 'period'> & {
  id: string;
  /** A points entry's points (null for a classic grade). */
  points: number | null;
  /** Which period a classic grade closes (null for a points entry). */
  period: BehaviourMark['period'] | null;
  comment: string | null;
};

/** An entry's key, the id of its event: `behaviour:<id>`. */
export const behaviourKey = (g: BehaviourGrade): string => `behaviour:${g.Id}`;

/** One candidate per entry with something to show, keyed by behaviourKey so that it fires once. */
export function behaviourEvents(input: BehaviourInput): NewsItem<BehaviourPayload>[] {
  const comments = commentIndex(input.comments);
  return readEntries(input).flatMap(({ entry: g, facts, mark }): NewsItem<BehaviourPayload>[] => {
    // A points entry (Value) is its points; a classic grade (no Value) its mark.
    const shown =
      mark ??
      (g.Value === undefined ? null : { grade: `${plNumber(g.Value)} pkt`, short: g.ShortName?.trim() || null, proposal: false, period: null });
    if (shown === null) return [];
    const { grade, short, proposal, period } = shown;
    const { semester, category, date, teacher } = facts;
    const id = behaviourKey(g);
    const comment = commentText(g.Comments, g.Id, comments);
    return [{ id, payload: { id, grade, short, points: g.Value ?? null, proposal, period, semester, category, date, teacher, comment } }];
  });
}
