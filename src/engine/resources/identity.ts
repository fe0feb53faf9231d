// Who the child is, as the portal tells it: Me, Users/<id>, Classes and Schools (with /informacja as the
// fallback for the class register number), read once a day by the identity's declaration (IDENTITY below)
// and by `check`; the endpoints are written here and nowhere else. The class it names is the signal of the
// copies that are the class's own (classSignal).
import { classResponse, meResponse, registerNumberFromPage, schoolResponse, userResponse, type Me } from '../../portal/schemas/identity.js';
import { UnexpectedResponseError } from '../../portal/errors.js';
import type { Gateway } from '../../portal/gateway.js';
import type { Identity } from '../identity.js';
import type { Logger } from '../../util/log.js';
import type { z } from 'zod';
import type { Copies, Resource } from '../resource.js';
import { byDay, DAY } from './ages.js';

/** The requests a read of the identity makes, as the documentation names them. */
export const IDENTITY_ENDPOINTS = ['Me', 'Users/<id>', 'Classes', 'Schools', '/informacja'] as const;
const [ME, USER, CLASSES, SCHOOLS, INFORMACJA] = IDENTITY_ENDPOINTS;

/**
 * Who the child is (a pass needs it first): the class, its tutor and the year's dates are of the day, so
 * it is read at the first pass of each day from 06:00 (a year's edges, and 1 September however late the
 * school moves its children up, among them), and when a person asks for a refresh; one read "in the
 * future" again at once.
 */
export const IDENTITY: Resource<Identity> = {
  name: "the child's identity (Me, Users/<id>, Classes, Schools)",
  host: 'register',
  endpoints: IDENTITY_ENDPOINTS,
  fresh: byDay(DAY),
  daily: '06:00',
  whenAsked: 'read',
  note: "read before the features, at each day's first pass from 06:00",
  read: ({ gateway, clock, log }) => fetchIdentity(gateway, clock.now(), log),
};

/**
 * The child's class as the identity last read it, the signal of a copy that is its class's own (the standing plan, the
 * class calendar's id): one read in another class (a new school year's move up, a move within the year) is read again at
 * the pass whose identity says so, not at its own age. Each pass reads the identity before the features' copies.
 */
export const classSignal = (copies: Copies): string | undefined => copies.peek(IDENTITY)?.classId;

/** The account's own record: one request, what `check` proves a family road's child by. */
export async function readMe(gateway: Gateway): Promise<Me> {
  return (await gateway.get(ME, meResponse)).Me;
}

export async function fetchIdentity(gateway: Gateway, now: number, log: Logger): Promise<Identity> {
  const me = await readMe(gateway);
  const userId = me.Account.UserId;
  const { User: user } = await gateway.get(USER.replace('<id>', encodeURIComponent(userId)), userResponse);
  const [klass, school] = await Promise.all([
    gateway.get(CLASSES, classResponse).then((r) => r.Class, optional(log, CLASSES)),
    gateway.get(SCHOOLS, schoolResponse).then((r) => r.School, optional(log, SCHOOLS)),
  ]);
  const registerNumber = user.ClassRegisterNumber ?? (await gateway.page(INFORMACJA).then(registerNumberFromPage, optional(log, 'informacja')));
  return {
    firstName: user.FirstName ?? me.User?.FirstName ?? '',
    lastName: user.LastName ?? me.User?.LastName ?? '',
    userId,
    accountLid: user.AccountId ?? undefined,
    classId: user.Class ?? klass?.Id ?? me.Class,
    ...(me.Class === undefined ? { noClass: true as const } : {}),
    className: klass ? `${klass.Number ?? ''}${klass.Symbol ?? ''}`.trim() || undefined : undefined,
    classTutorId: klass?.ClassTutor,
    unitId: user.Unit ?? klass?.Unit,
    schoolId: school?.Id,
    schoolName: school?.Name ?? undefined,
    schoolAddress: school ? addressOf(school) : undefined,
    headTeacher: [school?.NameHeadTeacher, school?.SurnameHeadTeacher].filter(Boolean).join(' ') || undefined,
    schoolEmail: school?.Email,
    schoolPhone: school?.PhoneNumber,
    bells: school?.LessonsRange,
    registerNumber,
    semester1End: klass?.EndFirstSemester ?? undefined,
    schoolYearEnd: klass?.EndSchoolYear ?? undefined,
    schoolYearBegin: klass?.BeginSchoolYear ?? undefined,
    fetchedAt: now,
  };
}

/** The school's address as a letter gives it: "Leśna 7, 05-090 Zielonki" (undefined when it says none). */
function addressOf(s: z.output<typeof schoolResponse>['School']): string | undefined {
  const street = [s.Street, [s.BuildingNumber, s.ApartmentNumber].filter(Boolean).join('/')].filter(Boolean).join(' ');
  return [street, [s.PostCode, s.Town].filter(Boolean).join(' ')].filter(Boolean).join(', ') || undefined;
}

/** Class and school names are nice to have: a refused module leaves them out. */
function optional(log: Logger, what: string) {
  return (error: unknown): undefined => {
    if (!(error instanceof UnexpectedResponseError)) throw error;
    log.debug({ what, status: error.status }, 'optional identity resource unavailable');
    return undefined;
  };
}
