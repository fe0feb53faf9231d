// The second simulated school of the board's browser tests: every child's subjects named in full, as a
// school may name them, and Wednesday a full day of eight lessons (the fullest a card has to hold).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulatedSchool } from './school.js';

/** The subjects as a school may name them in full. */
export const LONG_NAMES: Record<number, string> = {
  5011: 'Język polski – zajęcia z edukacji czytelniczej i medialnej',
  5012: 'Matematyka z elementami programowania',
  5013: 'Język angielski (grupa zaawansowana)',
  5014: 'Przyroda – zajęcia laboratoryjne',
  5015: 'Historia i teraźniejszość',
  5017: 'Plastyka i działania twórcze',
  5019: 'Informatyka – zajęcia w pracowni',
  5020: 'Wychowanie fizyczne – gimnastyka korekcyjna',
  5021: 'Religia rzymskokatolicka',
  5022: 'Zajęcia z wychowawcą i doradztwo zawodowe',
  5023: 'Edukacja wczesnoszkolna z elementami logopedii',
};

/** The school's subjects with their long names, as the portal lists them. */
function longSubjects(): unknown {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'simulator', 'school.json'), 'utf8')) as {
    resources: { Subjects: { Subjects: Array<{ Id: number; Name: string }> } };
  };
  return { Subjects: fixture.resources.Subjects.Subjects.map((s) => ({ ...s, Name: LONG_NAMES[s.Id] ?? s.Name })) };
}

/** Wednesday's eight lessons of a child's own lessons (`lessonId@classroomId`). */
const FULL_WEDNESDAY: Record<string, string[]> = {
  ania: ['8405@304', '8402@309', '8401@301', '8408@305', '8409@301', '8412@301', '8411@306', '8413@301'],
  janek: ['8101@307', '8101@307', '8102@307', '8101@307', '8103@307', '8104@305', '8101@307', '8103@307'],
};

/** The second school: every child's subjects named in full (unless `longNames` is false) and Wednesday a full day. */
export function secondSchool(school: SimulatedSchool, logins: ReadonlyArray<{ login: string; profile: string }>, longNames = true): void {
  for (const { login, profile } of logins) {
    const account = school.sim.account(login);
    if (longNames) account.setResource('Subjects', longSubjects());
    account.data.week['3'] = [[], ...(FULL_WEDNESDAY[profile] as string[]).map((slot) => [slot])];
  }
}
