// Who the account is: Me, the student's user record, class, school, units, and the lucky number.
import * as z from 'zod';
import { id, normId, optionalRef } from './common.js';
import { oneLine } from '../../util/text.js';

/** A name is one line, whatever the portal sends (it becomes a device name, a calendar's name, a title). */
const name = z
  .string()
  .nullish()
  .transform((v) => (v == null ? undefined : oneLine(v)));

/** A part of an address: a building number may come as a number. */
const part = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? undefined : oneLine(String(v))));

export const meResponse = z.looseObject({
  Me: z.looseObject({
    Account: z.looseObject({ Id: id, UserId: id, FirstName: name, LastName: name }),
    User: z.looseObject({ FirstName: name, LastName: name }).optional(),
    Class: optionalRef,
  }),
});

export const userResponse = z.looseObject({
  User: z.looseObject({
    Id: id,
    AccountId: z.string().nullish(),
    FirstName: name,
    LastName: name,
    Class: optionalRef,
    Unit: optionalRef,
    ClassRegisterNumber: z
      .union([z.number(), z.string()])
      .nullish()
      .transform((v) => (v == null || v === '' ? undefined : String(v).trim())),
  }),
});

export const classResponse = z.looseObject({
  Class: z.looseObject({
    Id: id,
    Number: z.union([z.number(), z.string()]).nullish(),
    Symbol: name,
    ClassTutor: optionalRef,
    Unit: optionalRef,
    BeginSchoolYear: z.string().nullish(),
    EndFirstSemester: z.string().nullish(),
    EndSchoolYear: z.string().nullish(),
  }),
});

/** One lesson's bell as a school's LessonsRange gives it (live-notes 56). */
export type Bell = { no: number; from: string; to: string };

/** "8:05" or "08:05:00" as "08:05"; anything else undefined. */
const clock = (value: unknown): string | undefined => {
  const m = typeof value === 'string' ? /^\s*(\d{1,2}):(\d{2})/.exec(value) : null;
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : undefined;
};

/**
 * LessonsRange (Schools.School and each unit of Units, live-notes 56): `{From, To, RawFrom, RawTo}` by position,
 * position N being lesson N. A position without two hours, one ending before it starts or both at midnight is a
 * placeholder (lesson 0 of a school that has none): no lesson.
 */
export function lessonsRange(value: unknown): Bell[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown, no): Bell[] => {
    const e = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const [from, to] = [clock(e.From), clock(e.To)];
    return from === undefined || to === undefined || from >= to ? [] : [{ no, from, to }];
  });
}

/**
 * Schools.School as public clients read it (live-notes 55): every field in capitals; the spec's table writes
 * `town` and `street` in lower case, so both are read.
 */
export const schoolResponse = z.looseObject({
  School: z
    .looseObject({
      Id: id.optional(),
      Name: name,
      Town: name,
      town: name,
      Street: part,
      street: part,
      BuildingNumber: part,
      ApartmentNumber: part,
      PostCode: part,
      Email: name,
      PhoneNumber: part,
      NameHeadTeacher: name,
      SurnameHeadTeacher: name,
      LessonsRange: z.unknown().optional().transform(lessonsRange),
    })
    .transform(({ town, street, ...s }) => ({ ...s, Town: s.Town ?? town, Street: s.Street ?? street })),
});

const luckyEntry = z.looseObject({
  LuckyNumber: z.union([z.number(), z.string()]).nullish(),
  LuckyNumberDay: z.string().nullish(),
});

/**
 * LuckyNumbers in the forms live schools answer (live-notes 8): {LuckyNumber: {...}} (the usual), a
 * list {LuckyNumbers: [...]}, and {LuckyNumber: null}: the school does not run it (`inUse` false).
 * Status Disabled and the LuckyNumberIsNotActive error are refusals the gateway raises.
 */
export const luckyNumberResponse = z.union([
  z.looseObject({ LuckyNumber: luckyEntry }).transform((r) => ({ inUse: true, entries: [r.LuckyNumber] })),
  z.looseObject({ LuckyNumbers: z.array(luckyEntry) }).transform((r) => ({ inUse: true, entries: r.LuckyNumbers })),
  z.looseObject({ LuckyNumber: z.null() }).transform(() => ({ inUse: false, entries: [] })),
]);

export type Me = z.output<typeof meResponse>['Me'];

/** The class register number from the /informacja page (fallback, spec 2.2). */
export function registerNumberFromPage(html: string): string | undefined {
  return /Nr\s+w\s+dzienniku\s*<\/th>\s*<td[^>]*>\s*(\d+)\s*</i.exec(html)?.[1];
}

export const tokenInfoResponse = z.looseObject({ UserIdentifier: z.string().nullish() });

export const userInfoResponse = z.looseObject({ IdentifierOfStudentAssignedWithUser: z.string().nullish() });

/** One unit's grade modules (each undefined when the unit does not say). */
export type UnitSettings = ReturnType<typeof unitSettings>;

/**
 * Units: every unit with the grade modules it switched on. A school complex lists several, each with
 * its own settings (live-notes 10); the layout around them is not fixed, so a lone GradesSettings
 * anywhere is read as the only unit.
 */
export const unitsResponse = z.unknown().transform((root): UnitSettings[] => {
  const record = root && typeof root === 'object' ? (root as Record<string, unknown>) : {};
  const listed = Array.isArray(record.Units) ? record.Units : record.Unit && typeof record.Unit === 'object' ? [record.Unit] : undefined;
  const units = listed?.filter((u): u is Record<string, unknown> => u !== null && typeof u === 'object' && !Array.isArray(u));
  if (units && units.length > 0) return units.map((unit) => unitSettings(unit, normId(unit.Id)));
  return [unitSettings(root, undefined)];
});

function unitSettings(unit: unknown, id: string | undefined) {
  const settings = findObject(unit, 'GradesSettings');
  const flag = (key: string): boolean | undefined => (typeof settings?.[key] === 'boolean' ? (settings[key] as boolean) : undefined);
  const bells = lessonsRange(unit && typeof unit === 'object' ? (unit as Record<string, unknown>).LessonsRange : undefined);
  return { id, standard: flag('StandardGradesEnabled'), point: flag('PointGradesEnabled'), descriptive: flag('DescriptiveGradesEnabled'), bells };
}

/**
 * The child's own unit (Users/<id>.Unit.Id, else Classes.Unit.Id: given as `unitId`), else the only
 * one. Several units and none known: undefined, so that every kind of grade is read rather than a
 * kind silently lost.
 */
export function childUnit(units: readonly UnitSettings[] | undefined, unitId: string | undefined): UnitSettings | undefined {
  if (!units) return undefined;
  const own = unitId === undefined ? undefined : units.find((u) => u.id === unitId);
  return own ?? (units.length === 1 ? units[0] : undefined);
}

/** Whether the unit says it gives no grades at all: every kind of grade switched off (live-notes 58 expects so of a kindergarten's). */
export function givesNoGrades(unit: UnitSettings | undefined): boolean {
  return unit !== undefined && unit.standard === false && unit.point === false && unit.descriptive === false;
}

function findObject(value: unknown, key: string, depth = 0): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object' || depth > 4) return undefined;
  const own = (value as Record<string, unknown>)[key];
  if (own && typeof own === 'object' && !Array.isArray(own)) return own as Record<string, unknown>;
  for (const inner of Object.values(value)) {
    const found = findObject(inner, key, depth + 1);
    if (found) return found;
  }
  return undefined;
}
