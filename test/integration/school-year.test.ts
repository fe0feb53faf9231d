// The real bridge across the school year's edges (issue 64), against the simulator and the real broker on
// the fake clock: from 31 August into 1 September the first pass after 06:00 knows the new class and
// tutor (on the register road and the family road) and reads the class's own plan and calendar again, a sick note pressed at 07:30 on the first morning
// goes to the new tutor, and a school that moves its children up days late is followed the morning after
// it did (or at once on a refresh). The diagnostics name the year the bridge goes by.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { command } from '../helpers/commands.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const SICK = {
  id: 'sick',
  name: 'Nieobecność',
  to: 'class_tutor',
  topic: 'Nieobecność {first_name}',
  body: 'Dzień dobry, {first_name} jest dziś chora.',
};
// Ania's tutor in 4b (Anna Nowak) and the one the simulator gives 5b (Piotr Wiśniewski), as the messaging host knows them.
const OLD_TUTOR = '4417203';
const NEW_TUTOR = '4417218';

// The last evening of the summer holidays; 1 September 2027 is a Wednesday.
const school = simulatedSchool('2027-08-31T20:00:00+02:00');

/** The class the child's device names (its model line, "Klasa 4b"). */
function model(h: Harness, child: string): string | undefined {
  const config = h.rec.json(`${h.prefix}/device/${h.base}_${child}/config`) as { dev?: { model?: string } } | undefined;
  return config?.dev?.model;
}

/** Moves the clock to a Warsaw wall time (minute by minute, every pass on the way run). */
async function until(h: Harness, iso: string): Promise<void> {
  await h.advanceMinutes(Math.round((Date.parse(iso) - school.clock.now()) / 60_000));
}

async function registerBridge(): Promise<Harness> {
  const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania', messages: [SICK] }] });
  await h.runUntil(() => model(h, 'ania') !== undefined && h.state('ania', 'newest_grade') !== undefined, 'the first pass');
  return h;
}

describe('31 August into 1 September', () => {
  it('on the register road: the first pass after 06:00 has the new class, and the sick note at 07:30 goes to the new tutor', {
    timeout: 120_000,
  }, async () => {
    const h = await registerBridge();
    expect(model(h, 'ania')).toBe('Klasa 4b');

    await until(h, '2027-09-01T06:05:00+02:00');
    expect(model(h, 'ania')).toBe('Klasa 5b');
    // The class's own copies, last read in 4b, are read again in 5b at that pass rather than at their age (a week for
    // the standing plan, a day for the class calendar's id): the board holds the new year's days to the new plan.
    const morning = Date.parse('2027-09-01T06:00:00+02:00');
    const read = school.sim.requests.filter((r) => r.at >= morning && r.login === ANIA.login).map((r) => r.path.split('/').at(-1));
    expect(read).toEqual(expect.arrayContaining(['TimetableEntries', 'Calendars']));
    // The diagnostics' school year: the new year's dates and class, read this morning.
    const figures = JSON.parse(await readFile(join(h.dataDir, 'figures', `${ANIA.login}.json`), 'utf8')) as { school_year?: Record<string, unknown> };
    expect(figures.school_year).toMatchObject({ begins: '2027-09-01', first_semester_ends: '2028-01-28', ends: '2028-06-30', class: '5b' });

    await until(h, '2027-09-01T07:30:00+02:00');
    expect(await command(h, 'ania', 'send_message', 'sick', school.clock)).toMatchObject({ status: 'ok', sent: true });
    const sent = school.sim.messaging.sent.map((m) => m.receivers);
    expect(sent).toEqual([[NEW_TUTOR]]);
    expect(sent.flat()).not.toContain(OLD_TUTOR);
  });

  it('a sick note pressed on the first morning before any pass has read the day goes to the new tutor', { timeout: 120_000 }, async () => {
    const h = await registerBridge();
    await until(h, '2027-09-01T05:59:00+02:00');
    expect(model(h, 'ania')).toBe('Klasa 4b');
    expect(await command(h, 'ania', 'send_message', 'sick', school.clock)).toMatchObject({ status: 'ok', sent: true });
    expect(school.sim.messaging.sent.map((m) => m.receivers)).toEqual([[NEW_TUTOR]]);
    // The identity the send read is the child's from the next pass on.
    await until(h, '2027-09-01T06:10:00+02:00');
    expect(model(h, 'ania')).toBe('Klasa 5b');
  });

  it('a message written to the class tutor on the first morning goes to the new one', { timeout: 120_000 }, async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania', write_messages: true }] });
    await h.runUntil(() => model(h, 'ania') !== undefined, 'the first pass');
    await until(h, '2027-09-01T07:30:00+02:00');
    const payload = JSON.stringify({ to: 'class_tutor', topic: 'Nieobecność', text: 'Ania jest dziś chora.' });
    expect(await command(h, 'ania', 'write', payload, school.clock)).toMatchObject({ status: 'ok', sent: true });
    expect(school.sim.messaging.sent.map((m) => m.receivers)).toEqual([[NEW_TUTOR]]);
  });

  it('on the family road: both children are in their new classes from the first pass after 06:00', { timeout: 120_000 }, async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(() => model(h, 'ania') !== undefined && model(h, 'jan') !== undefined, 'the first passes');
    expect([model(h, 'ania'), model(h, 'jan')]).toEqual(['Klasa 4b', 'Klasa 1a']);
    await until(h, '2027-09-01T06:05:00+02:00');
    expect([model(h, 'ania'), model(h, 'jan')]).toEqual(['Klasa 5b', 'Klasa 2a']);
  });
});

describe('a school that moves its children up days late (live-notes 39)', () => {
  it("keeps last year's class while the portal does, and has the new one from the first pass after 06:00 the morning after the move", {
    timeout: 120_000,
  }, async () => {
    await school.reopen('2027-09-02T20:00:00+02:00');
    // The school moves its children on Friday 3 September.
    school.sim.account(ANIA.login).year.movesUpAfterDays = 2;
    const h = await registerBridge();
    expect(model(h, 'ania')).toBe('Klasa 4b');
    // The ended year's EndFirstSemester (January) places no September day: the average is the new first semester's.
    expect(h.attributes('ania', 'average')).toMatchObject({ semester: 1 });
    await until(h, '2027-09-03T06:05:00+02:00');
    expect(model(h, 'ania')).toBe('Klasa 5b');
  });

  it('a refresh after the school moved its children mid-morning has the new class at once', { timeout: 120_000 }, async () => {
    await school.reopen('2027-09-03T09:00:00+02:00');
    const year = school.sim.account(ANIA.login).year;
    year.movesUpAfterDays = 5;
    const h = await registerBridge();
    expect(model(h, 'ania')).toBe('Klasa 4b');
    // The school moves its children up at 10:00 on 3 September; a parent presses refresh.
    await until(h, '2027-09-03T10:00:00+02:00');
    year.movesUpAfterDays = 2;
    expect(await command(h, 'ania', 'refresh', 'PRESS', school.clock)).toMatchObject({ status: 'ok' });
    await h.advanceMinutes(1);
    expect(model(h, 'ania')).toBe('Klasa 5b');
  });
});
