// Who the child is: name, class, school and class register number (read once a day by the identity's
// declaration, src/engine/resources/identity.ts), its id, and where it is kept between runs.
import * as z from 'zod';
import { LoginFile } from '../util/stored.js';
import { oneLine } from '../util/text.js';

/** The child's id: the configured one, else the first name folded to [a-z0-9_]. */
export function childSlug(firstName: string): string {
  const folded = firstName
    .toLowerCase()
    .replace(/ł/g, 'l')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return folded || 'child';
}

/** Where the child's identity is kept between runs (the dashboard command reads it too). */
const identityFile = (dataDir: string, login: string) => new LoginFile(dataDir, 'identity', login, storedIdentity);

export function saveIdentity(dataDir: string, login: string, identity: Identity): Promise<void> {
  return identityFile(dataDir, login).save(identity);
}

/** Names kept in a file are one line, as the portal's are made (they become device names and titles). */
const storedName = z.string().transform(oneLine);
const storedIdentity = z.object({
  firstName: storedName,
  lastName: storedName,
  userId: z.string(),
  accountLid: z.string().optional(),
  classId: z.string().optional(),
  className: storedName.optional(),
  /** Me names no class: a kindergarten child's account (live-notes 58), in a group rather than a class. */
  noClass: z.literal(true).optional(),
  classTutorId: z.string().optional(),
  /** Schools.School.Id: the children of one school share its lucky number (engine/school-reads.ts). */
  schoolId: z.string().optional(),
  schoolName: storedName.optional(),
  schoolAddress: storedName.optional(),
  headTeacher: storedName.optional(),
  schoolEmail: z.string().optional(),
  schoolPhone: z.string().optional(),
  /** The school's LessonsRange (live-notes 56): lesson number -> its hours; empty where it gives none. */
  bells: z.array(z.object({ no: z.number(), from: z.string(), to: z.string() })).optional(),
  registerNumber: z.string().optional(),
  semester1End: z.string().optional(),
  schoolYearEnd: z.string().optional(),
  schoolYearBegin: z.string().optional(),
  fetchedAt: z.number(),
});

/** Who the child is; its unit in a school complex of several (Users/<id>.Unit, else Classes.Unit) a reload leaves out until the next read. */
export type Identity = z.output<typeof storedIdentity> & { unitId?: string };

/** The identity the last run saved; a broken file is moved aside (told to onBroken) and it is read from the portal again. */
export function loadIdentity(dataDir: string, login: string, onBroken?: (error: Error) => void): Promise<Identity | undefined> {
  return identityFile(dataDir, login).load(onBroken);
}
