// Behaviour grades (spec 2.4) read into GradeItems: points schools show Value and ShortName, the
// classic scale keeps the grade in BehaviourGrade.Id ('1' wz ... '6' ng, named by BehaviourGrades/Types).
import type {
  BehaviourCategory,
  BehaviourComment,
  BehaviourGrade,
  BehaviourType,
} from '../portal/schemas/behaviour.js';
import { byId } from './common.js';
import { commentIndex, commentText, entryFields, plNumber, type GradeItem } from './grade-item.js';
import type { Names } from './names.js';

/** The classic scale's short forms, used when BehaviourGrades/Types is missing. */
const CLASSIC: Record<string, string> = { '1': 'wz', '2': 'bdb', '3': 'db', '4': 'popr', '5': 'ndp', '6': 'ng' };

export interface BehaviourSources {
  /** BehaviourGrades/Points (the formal grade). */
  behaviourPoints?: readonly BehaviourGrade[];
  /** BehaviourGrades (empty so far; read the same way). */
  behaviourGrades?: readonly BehaviourGrade[];
  behaviourTypes?: readonly BehaviourType[];
  behaviourComments?: readonly BehaviourComment[];
  behaviourCategories?: readonly BehaviourCategory[];
}

function shownBehaviour(g: BehaviourGrade, types: Map<string, BehaviourType>): { shown: string | null; name: string | null } {
  if (g.Value !== undefined) return { shown: `${plNumber(g.Value)} pkt`, name: g.ShortName?.trim() ?? null };
  const short = g.ShortName?.trim();
  if (short) return { shown: short, name: g.Text?.trim() ?? null };
  const classic = g.BehaviourGrade;
  if (classic === undefined) return { shown: null, name: null };
  const type = types.get(classic);
  return { shown: type?.Shortcut?.trim() ?? CLASSIC[classic] ?? null, name: type?.Name?.trim() ?? null };
}

export function behaviourGradeItems(src: BehaviourSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const types = byId(src.behaviourTypes);
  const categories = byId(src.behaviourCategories);
  const comments = commentIndex(src.behaviourComments);
  const read = (list: readonly BehaviourGrade[] | undefined, prefix: string): GradeItem[] =>
    (list ?? []).map((g) => {
      const { shown, name } = shownBehaviour(g, types);
      const category = g.Category === undefined ? undefined : categories.get(g.Category);
      return {
        key: `behaviour:${prefix}${g.Id}`,
        kind: 'behaviour',
        shown,
        subject: null,
        category: category?.Name?.trim() ?? null,
        weight: null,
        ...entryFields(g, names, endFirstSemester),
        comment: commentText(g.Comments, g.Id, comments),
        details: { name, points: g.Value ?? null },
      };
    });
  return [...read(src.behaviourPoints, ''), ...read(src.behaviourGrades, 'g')];
}
