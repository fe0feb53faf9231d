// The log of a real run (first pass, then a dead session and a fresh login): every JSON line names
// each key once, although the session logs `account` on a logger that already carries it.
import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** The top-level keys of one JSON line as written, duplicates included (JSON.parse would hide them). */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      const end = nextQuote(line, i + 1);
      if (depth === 1 && line[end + 1] === ':') keys.push(line.slice(i + 1, end));
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

function nextQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') return i;
  }
  return line.length;
}

it('names every key once in each line of a run', async () => {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
  const h = await school.firstPasses(['last_update'], { log });
  school.sim.expireSessions(ANIA.login);
  await h.advanceMinutes(21);

  expect(lines.some((l) => l.includes('session expired; logging in again'))).toBe(true);
  for (const line of lines) {
    const keys = topLevelKeys(line);
    expect(keys, line).toEqual([...new Set(keys)]);
    expect(JSON.parse(line)).toHaveProperty('msg');
  }
});

it('names a child by its id once its first pass read who it is, its login masked beside it', async () => {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
  // The demo's login entry: no `id`, so the id comes from her first name.
  const h = await school.firstPasses(['last_update'], { log });
  const firstPass = lines.length;
  school.sim.expireSessions(ANIA.login);
  await h.advanceMinutes(21);

  const later = lines.slice(firstPass).map((l) => JSON.parse(l) as Record<string, unknown>);
  const relogin = later.filter((l) => l.msg === 'session expired; logging in again' || l.msg === 'logged in');
  expect(relogin.length).toBeGreaterThan(1);
  for (const line of relogin) expect(line).toMatchObject({ account: 'ania', login: '12…u' });
  // No line about her names her by her login alone any more.
  expect(later.filter((l) => l.account !== undefined && l.account !== 'ania')).toEqual([]);
});

it("names an e-mail entry's child by its id once read, not by the family entry or its login", async () => {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
  const family = { email: 'kowalscy@example.com', password: 'demo-kowalscy' };
  school.sim.families.add({ ...family, logins: [ANIA.login] });
  // Her entry under `children:` gives no id: it comes from her first name.
  const h = await school.start({ accounts: [{ ...family, children: [{ login: ANIA.login }] }] as never, log });
  await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'her first pass');
  const firstPass = lines.length;
  await h.advanceMinutes(3 * 60);
  const later = lines.slice(firstPass).map((l) => JSON.parse(l) as Record<string, unknown>);
  const hers = later.filter((l) => l.msg === 'pass done' || String(l.msg).startsWith('messaging '));
  expect(hers.length).toBeGreaterThan(1);
  for (const line of hers) expect(line).toMatchObject({ account: 'ania', login: '12…u' });
  expect(later.filter((l) => l.account === '12…u')).toEqual([]);
});
