// The newer descriptive grading (spec 4.5): PartialGrades items keyed by LIDs, read so that a boolean
// where a string or number belongs is ignored instead of failing the item.
import * as z from 'zod';
import { lenientList } from './common.js';
import { text, num, toText, objectList, lenient } from './fields.js';

/** A value that is text or a number; booleans and objects are ignored (undefined). */
const textOrNumber = lenient((v) => toText(v)?.trim());

/** subjectId: a LID to map through Auth/Subjects, or a number taken as an ordinary subject id. */
const subjectId = lenient((v): { lid: string } | { id: string } | undefined => {
  if (typeof v === 'number') return Number.isInteger(v) ? { id: String(v) } : undefined;
  const t = toText(v)?.trim();
  if (t === undefined) return undefined;
  return /^\d+$/.test(t) ? { id: t } : { lid: t };
});

/**
 * The mark: scaleValue.value as text. A 0 stays '0' (it is a real mark on this scale, not "empty"), a
 * boolean is ignored. A scale value given as a bare string or number is accepted too.
 */
const scaleValue = lenient((v) => {
  const inner = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).value : v;
  return toText(inner)?.trim();
});

/** Comments come as text, an object with text, or a list of either; all read to a list of text. */
const comments = lenient((v): string[] =>
  (Array.isArray(v) ? v : v == null ? [] : [v]).flatMap((item: unknown) => {
    const o = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
    const t = o ? (toText(o.text) ?? toText(o.content) ?? toText(o.comment) ?? toText(o.value) ?? toText(o.name)) : toText(item);
    return t === undefined ? [] : [t];
  }),
);

const area = lenient((v) => {
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  return { id: toText(o.id)?.trim(), name: toText(o.name)?.trim(), color: toText(o.color) };
});

const requirement = z.looseObject({ id: textOrNumber, name: text });

const partialGrade = z.looseObject({
  /** A LID; the spec's string-id kind, so any non-blank text is usable. */
  gradeId: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => v !== ''),
  teacherId: textOrNumber,
  addedBy: textOrNumber,
  area,
  subjectId,
  scaleValue,
  content: text,
  comments,
  implementedRequirements: objectList(requirement),
  date: text,
  semester: num,
  addDate: text,
});

const pagination = z.looseObject({ limit: num, page: num, total: num });

/** POST .../PartialGrades/Student/<LID>: only the first page is read (spec 4.5). */
export const partialGradesResponse = z.looseObject({
  data: lenientList(partialGrade),
  pagination: pagination.optional().catch(undefined),
});

export type PartialGrade = z.output<typeof partialGrade>;
