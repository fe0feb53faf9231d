// Descriptive grades, old (DescriptiveGrades: the mark is Map, never Grade) and new (PartialGrades,
// spec 4.5: ids p<gradeId>, subject LIDs mapped through Auth/Subjects), read into GradeItems.
import type { AuthSubject } from '../portal/schemas/lookups.js';
import type { PartialGrade } from '../portal/schemas/partial.js';
import { byId, collapse } from './portal-values.js';
import { commentIndex, commentText, entryFields, type GradeItem } from './grade-item.js';
import type { Names } from './names.js';
import type { GradeSources } from './grades-standard.js';

export function descriptiveGradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const skills = byId(src.skills);
  const comments = commentIndex(src.descriptiveComments);
  return (src.descriptiveGrades ?? []).map((g) => {
    const skill = g.Skill === undefined ? undefined : skills.get(g.Skill);
    const subjectId = g.Subject ?? skill?.Subject;
    const skillName = skill?.Name?.trim() ?? null;
    return {
      key: `descriptive:${g.Id}`,
      kind: 'descriptive',
      // Grade holds the range on the scale, not the mark (spec 2.4).
      shown: (g.Map ?? g.RealGradeValue)?.trim() ?? null,
      subjectId,
      subject: names.subject(subjectId),
      category: skillName,
      weight: null,
      ...entryFields(g, names, endFirstSemester),
      comment: commentText(g.Comments, g.Id, comments),
      details: { skill: skillName },
    };
  });
}

/** The ordinary subject id of a partial grade: a LID through Auth/Subjects, a number as it is. */
function partialSubject(subject: PartialGrade['subjectId'], authSubjects: Map<string, AuthSubject>): { id?: string; name?: string } {
  if (subject === undefined) return {};
  if ('id' in subject) return { id: subject.id };
  const known = authSubjects.get(subject.lid);
  return { id: known?.numericIdentifier, name: known?.name };
}

export function partialGradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const authSubjects = new Map((src.authSubjects ?? []).map((s) => [s.identifier, s]));
  return (src.partialGrades ?? []).map((g) => {
    const subject = partialSubject(g.subjectId, authSubjects);
    const comments = [g.content, ...g.comments].map(collapse).filter((c) => c !== undefined);
    const skillName = g.area?.name ?? null;
    return {
      key: `descriptive:p${g.gradeId}`,
      kind: 'descriptive',
      shown: g.scaleValue ?? null,
      subjectId: subject.id,
      subject: names.subject(subject.id) ?? subject.name ?? null,
      category: skillName,
      weight: null,
      ...entryFields({ Date: g.date, AddDate: g.addDate, Semester: g.semester }, names, endFirstSemester),
      // Which of teacherId and addedBy is the teacher is not known; the first that resolves wins.
      teacher: names.teacherByLid(g.teacherId) ?? names.teacherByLid(g.addedBy),
      comment: comments.length > 0 ? comments.join('; ') : null,
      details: {
        skill: skillName,
        requirements: g.implementedRequirements.map((r) => r.name).filter((n) => n !== undefined),
      },
    };
  });
}
