// Next week against the standing weekly plan (interface 18.2), on the simulator's school with the running bridge: a
// lesson moved to another room, a lesson cancelled, and a lesson moved from Thursday's seventh slot into Friday's empty
// sixth (an added lesson there, a missing one where it left). Each difference is computed once and reads the same in
// timetable_today's `standing_differences`, on the board, on the dashboard (rendered as Home Assistant renders it)
// and in Assist's get_day.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { dashboard } from '../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../src/features/index.js';
import { entityId } from '../../src/features/kit/entities.js';
import { timetableToday } from '../../src/features/timetable/entities.js';
import { loadOrCreateToken, mcpUrl } from '../../src/outputs/web/token.js';
import { renderTemplates, skipWithoutJinja } from '../helpers/blueprints.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';
import { answers, hasSdk } from '../helpers/assist.js';

const NOW = '2026-11-18T09:11:30+01:00';
const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool(NOW);
const [MONDAY, TUESDAY, THURSDAY, FRIDAY] = ['2026-11-23', '2026-11-24', '2026-11-26', '2026-11-27'];

type Difference = { date: string; no: number | null; kind: string; was: string | null; now: string | null; words: string };

/** The markdown card that prints timetable_today's `standing_differences`, in Polish. */
function standingTemplate(): string {
  const found: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      const card = n as Record<string, unknown>;
      if (card.type === 'markdown' && typeof card.content === 'string' && card.content.includes('standing_differences')) found.push(card.content);
      Object.values(card).forEach(walk);
    }
  };
  walk(dashboard([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** Markdown as a person reads it: the entities the dashboard escapes with, and its escaped full stops, as characters. */
const readable = (markdown: string): string => markdown.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replaceAll('\\.', '.');

describe.skipIf(skipWithoutJinja() || (!hasSdk() && !process.env.CI))('next week against the standing plan', () => {
  it('tells a moved room, a missing lesson and an added one the same on the attribute, the board, the dashboard and Assist', async () => {
    const account = school.sim.account(ANIA.login);
    // Monday's maths (lesson 2, room 309: "22") in room 305 ("s.gim."); Tuesday's English (lesson 4) cancelled; Thursday's lesson 7 to Friday's 6.
    account.addPlanChange({ kind: 'substitution', OrgDate: MONDAY, OrgLessonNo: 2, Classroom: 305 });
    account.addPlanChange({ kind: 'cancelled', OrgDate: TUESDAY, OrgLessonNo: 4 });
    account.moveLesson({ from: { date: THURSDAY, lessonNo: 7 }, to: { date: FRIDAY, lessonNo: 6 } });
    const port = await freePort();
    const h = await school.firstPasses(['timetable_today'], { http: { port }, out: { write: () => true } });
    // The standing plan is read after a start's first pass.
    const differences = (): Difference[] => (h.attributes('ania', 'timetable_today')?.standing_differences as Difference[] | undefined) ?? [];
    await h.advanceUntil(() => differences().length > 0, 'the standing plan', 10);

    // The attribute: each difference with its facts and its words.
    const next = differences().filter((d) => d.date >= MONDAY);
    expect(next.map(({ date, no, kind }) => `${date} ${no} ${kind}`)).toEqual([
      `${MONDAY} 2 room`,
      `${TUESDAY} 4 missing`,
      `${THURSDAY} 7 missing`,
      `${FRIDAY} 6 added`,
    ]);
    const [room, missing, , added] = next as [Difference, Difference, Difference, Difference];
    expect([room.was, room.now]).toEqual(['22', 's.gim.']);
    expect(room.words).toBe(`sala ${room.now} zamiast ${room.was}`);
    expect(missing.words).toBe('brak lekcji: Język angielski (jest w stałym planie)');
    expect(added.words).toBe('dodatkowa lekcja: Język angielski');
    const lines = [`pon. 23.11: 2. ${room.words}`, `wt. 24.11: 4. ${missing.words}`, `pt. 27.11: 6. ${added.words}`];

    // The board: the card's box, each line under its day.
    const token = (await loadOrCreateToken(h.dataDir)).value;
    const { model } = JSON.parse((await send(port, `/api/board?token=${token}`)).body) as {
      model: { children: { id: string; standing: { title: string; items: { day: string; line: string }[] } | null }[] };
    };
    const box = model.children.find((c) => c.id === 'ania')?.standing;
    expect(box?.title).toBe('Inaczej niż w stałym planie');
    const board = box?.items.map((i) => `${i.day}: ${i.line}`) ?? [];
    for (const line of lines) expect(board).toContain(line);

    // The dashboard, rendered from the published state as Home Assistant renders it.
    const states = {
      [entityId('ania', timetableToday)]: {
        state: String(h.state('ania', 'timetable_today')),
        attributes: h.attributes('ania', 'timetable_today') ?? {},
      },
    };
    const [shown] = await renderTemplates([{ template: standingTemplate(), variables: {}, states, strict: true, now: NOW }]);
    const text = readable(String((shown as { value: string }).value));
    expect(text).toContain('**Inaczej niż w stałym planie:**');
    for (const line of lines) expect(text).toContain(`- ${line}`);

    // Assist: get_day of each day says its difference under the same heading, in the same words.
    const url = mcpUrl(`http://127.0.0.1:${port}`, token);
    const told = await answers(
      url,
      [MONDAY, TUESDAY, FRIDAY].map((date) => ({ tool: 'get_day', arguments: { child: 'Ania', date } })),
    );
    for (const [i, line] of lines.entries()) expect(told[i]?.text).toContain(`Inaczej niż w stałym planie: ${line.slice(line.indexOf(': ') + 2)}`);
  }, 180_000);
});
