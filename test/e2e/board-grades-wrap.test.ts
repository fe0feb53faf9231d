// The grades box and the lessons read whole with three children side by side on a 1280x800 tablet
// (issue 89, interface 16.2): in Chromium against the real bridge and the simulator, each grade the box
// shows stands with its subject in full (wrapped, never "Fizy…"), the newest real grade first, and a
// lesson's "Edukacja wczesnoszkolna" is not cut to "Edukacja…", nor a change of tomorrow's plan to "5. T…". The board
// still fits the screen.
// Screenshot: test/artifacts/board-grades-1280x800-3.png.
import { describe, expect, it } from 'vitest';
import { ANIA, JANEK, ZOSIA, bridgeWithChildren, useBoardPage, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { layoutProblems } from '../helpers/board-layout.js';
import { secondSchool } from '../helpers/board-school.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the second lesson.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();
const boardAt = useBoardPage(browser);

interface Shown {
  text: string;
  /** Whether the element shows less than it holds: a line ended with "…", or lines clamped away. */
  cut: boolean;
}

/**
 * Per card, its name, the grades box's text, each shown grade's subject and each lesson's subject, with
 * whether it is cut: a text line of it that a box around it clips (a line clamped away, or cut in half),
 * or the element itself ending in "…" (its text wider or taller than it shows).
 */
const READ = `(() => {
  const cut = (e) => {
    if (getComputedStyle(e).display !== 'inline' && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)) return true;
    const range = document.createRange();
    range.selectNodeContents(e);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    for (let a = e; a && !a.classList.contains('board'); a = a.parentElement) {
      if (getComputedStyle(a).overflowY === 'visible' && getComputedStyle(a).overflowX === 'visible') continue;
      const box = a.getBoundingClientRect();
      const [top, left] = [box.top + a.clientTop, box.left + a.clientLeft];
      if (rects.some((r) => r.bottom > top + a.clientHeight + 1 || r.right > left + a.clientWidth + 1 || r.top < top - 1)) return true;
    }
    return false;
  };
  const shown = (e) => ({ text: e.textContent.trim(), cut: cut(e) });
  return [...document.querySelectorAll('.child')].map((card) => ({
    name: card.querySelector('h2').textContent,
    box: (card.querySelector('.grades') || { innerText: '' }).innerText,
    subjects: [...card.querySelectorAll('.grades li.grade .grade-subject')].map(shown),
    lessons: [...card.querySelectorAll('.lesson .subject-name')].map(shown),
    changes: [...card.querySelectorAll('.next-change .next-subject')].map(shown),
  }));
})()`;

describe.skipIf(skip)("the board's grades box with three children", () => {
  it('at 1280x800 shows each grade with its subject in full and the lessons whole, and fits the screen', async () => {
    school.sim.addAccount(ZOSIA);
    const children = [{ ...ANIA, profile: 'ania', id: 'ania' }, { ...JANEK, profile: 'janek', id: 'jan' }, ZOSIA];
    // Wednesday a full day of eight lessons, the subjects as the simulator names them: Janek's are
    // "Edukacja wczesnoszkolna" most of the day.
    secondSchool(school, children, false);
    // Tomorrow's plan changed for the two pupils: a lesson cancelled and one taken over by another subject.
    for (const { login } of children.slice(0, 2)) {
      const account = school.sim.account(login);
      account.addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-19', OrgLessonNo: 2 });
      account.addPlanChange({ kind: 'substitution', OrgDate: '2026-11-19', OrgLessonNo: 5, Teacher: 162001, Subject: 5022 });
    }
    const { h, port, token } = await bridgeWithChildren(school, children);
    await h.runUntil(() => children.slice(0, 2).every((c) => Number(h.state(c.id, 'plan_changes_tomorrow')) > 0), "tomorrow's changes read");
    const { page, problems } = await boardAt(`http://127.0.0.1:${port}/?token=${token}`, 1280, 800);
    await screenshot(page, 'board-grades-1280x800-3.png');
    expect(await layoutProblems(page)).toEqual([]);

    const cards = (await page.evaluate(READ)) as Array<{ name: string; box: string; subjects: Shown[]; lessons: Shown[]; changes: Shown[] }>;
    expect(cards).toHaveLength(3);
    for (const [i, card] of cards.entries()) {
      const id = (children[i] as { id: string }).id;
      // The newest real grade, as the bridge publishes it, is the box's first line, its subject whole.
      const newest = h.attributes(id, 'newest_grade') as { subject?: string } | undefined;
      const subject = newest?.subject;
      expect(subject, `${card.name}: the newest grade's subject`).toBeTruthy();
      expect(card.subjects.length, `${card.name}: grades shown`).toBeGreaterThan(0);
      expect(card.subjects[0]?.text, `${card.name}: the first grade is the newest`).toBe(subject);
      for (const s of card.subjects) {
        expect(s.text, `${card.name}: a subject's words`).not.toContain('\u2026');
        expect(s.cut, `${card.name}: "${s.text}" shown whole`).toBe(false);
      }
      expect(card.box, `${card.name}: the box's text holds the newest grade's subject`).toContain(subject as string);
    }
    for (const card of cards) for (const l of card.lessons) expect(l.cut, `${card.name}: the lesson "${l.text}" shown whole`).toBe(false);
    // Tomorrow's changes: each shown names its lesson and subject whole, as timetable_tomorrow has them ("5. T…" was a stump).
    for (const [i, card] of cards.slice(0, 2).entries()) {
      const id = (children[i] as { id: string }).id;
      const lessons = (h.attributes(id, 'timetable_tomorrow')?.lessons ?? []) as {
        no: number;
        subject: string | null;
        original_subject?: string;
        change: string | null;
      }[];
      const changed = lessons.filter((l) => l.change !== null).map((l) => `${l.no}. ${l.subject ?? l.original_subject}`);
      expect(card.changes.length, `${card.name}: tomorrow's changes shown`).toBeGreaterThan(0);
      for (const c of card.changes) {
        expect(changed, `${card.name}: a change's lesson and subject`).toContain(c.text);
        expect(c.cut, `${card.name}: "${c.text}" shown whole`).toBe(false);
      }
    }
    // Janek's day of early-school education: its name read whole, on every lesson shown.
    const janek = cards[1] as { lessons: Shown[] };
    const early = janek.lessons.filter((l) => l.text === 'Edukacja wczesnoszkolna');
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((l) => !l.cut)).toBe(true);
    expect(problems).toEqual([]);
  }, 90_000);
});
