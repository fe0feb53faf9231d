// The children the family portal last listed for an `email` entry, kept in data_dir so that `dashboard`
// names them without logging in. One file per entry, named as the entry's session is (a digest of the
// e-mail, never the e-mail); it holds each child's register login and name, as an identity file does.
import * as z from 'zod';
import { LoginFile } from '../util/stored.js';

/** A linked child as the family portal named it: its register login and its name as listed ("Ania Kowalska"). */
const childSchema = z.object({ login: z.string().min(1), studentName: z.string() });
export type LinkedChildRecord = z.infer<typeof childSchema>;

const stored = z.object({ version: z.literal(1), children: z.array(childSchema) });

const linkedFile = (dataDir: string, name: string) => new LoginFile(dataDir, 'families', name, stored);

/** `name`: the entry's file name (familySessionName). */
export function saveLinkedChildren(dataDir: string, name: string, children: readonly LinkedChildRecord[]): Promise<void> {
  return linkedFile(dataDir, name).save({ version: 1, children: children.map(({ login, studentName }) => ({ login, studentName })) });
}

/** What the last listing saved; undefined before the first (or when the file was broken and moved aside). */
export async function loadLinkedChildren(dataDir: string, name: string): Promise<LinkedChildRecord[] | undefined> {
  return (await linkedFile(dataDir, name).load())?.children;
}
