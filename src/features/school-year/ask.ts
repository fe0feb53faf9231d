// What Assist asks of the school (interface 17.1): the school, its address, head teacher and contacts, the class (a
// kindergarten's group) and its tutor, the child's number and the year's dates. From the feature's own view: the
// child's identity, the tutor's name, the year's facts and the kindergarten's group.
import type { Identity } from '../../engine/identity.js';
import type { KindergartenGroup } from '../timetable/kindergarten.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import type { AskContext, AskPart, Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the school's view (SchoolView without the bells: the timetable tells them). */
export interface SchoolAsk {
  identity: Pick<
    Identity,
    'schoolName' | 'schoolAddress' | 'headTeacher' | 'schoolEmail' | 'schoolPhone' | 'className' | 'registerNumber' | 'noClass'
  >;
  tutor: string | null;
  /** The year's dates, as the `school_year` event gives them. */
  year: { begins: string; first_semester_ends: string | null; ends: string | null } | undefined;
  group: KindergartenGroup | undefined;
}

function school(facts: SchoolAsk, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].school;
  const { identity: id, year, group } = facts;
  // Each fact the school keeps; one it does not give is said as not known.
  const fact = (title: string, value: string | number | null | undefined): Told => ({
    title,
    lines: value === null || value === undefined || value === '' ? null : [String(value)],
  });
  // A child in no class (a kindergarten's group) has no register number nor a class's year: left out unless given.
  const classFact = (title: string, value: string | null | undefined): Told[] =>
    id.noClass === true && (value === null || value === undefined) ? [] : [fact(title, value)];
  return [
    fact(w.school, id.schoolName),
    fact(w.address, id.schoolAddress),
    fact(w.headTeacher, id.headTeacher),
    fact(w.email, id.schoolEmail),
    fact(w.phone, id.schoolPhone),
    fact(w.className, id.className ?? group?.name),
    fact(w.tutor, facts.tutor ?? group?.tutor),
    ...classFact(w.registerNumber, id.registerNumber),
    ...classFact(w.year, year?.first_semester_ends && year.ends ? w.schoolYear(year.begins, year.first_semester_ends, year.ends) : null),
  ];
}

export const schoolAsk: AskPart<SchoolAsk> = { unknown: { identity: {}, tutor: null, year: undefined, group: undefined }, school };
