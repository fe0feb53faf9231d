// The streaks on the screens: the board's badge for an achievement of the last 7 days (none older, none
// unknown), the sensor of a kindergarten child without a good-grades streak, and the child view's card
// rendered by Jinja2 as Home Assistant renders it, in Polish.
import { describe, expect, it } from 'vitest';
import { renderStreaks, streaksEntity, streaksFeature } from '../../../../src/features/streaks/streaks.js';
import { streaks } from '../../../../src/features/streaks/rules.js';
import { shownChild } from '../../../../src/features/screens/parts.js';
import { ChildEntities } from '../../../../src/features/screens/child-entities.js';
import { DASHBOARD_TEXT } from '../../../../src/i18n/dashboard-text.js';
import { renderTemplates, skipWithoutJinja } from '../../../helpers/blueprints.js';
import type { EntityState } from '../../../../src/engine/state.js';

// Wednesday 18 November 2026, 10:00 in Warsaw.
const NOW = Date.parse('2026-11-18T10:00:00+01:00');
const published = (attributes: Record<string, unknown>): ReadonlyMap<string, EntityState> =>
  new Map([['streaks', { state: '10', attributes } as EntityState]]);
const board = (attributes: Record<string, unknown>) => streaksFeature.board!(shownChild(published(attributes), 'pl', NOW));

describe('the board', () => {
  it('shows the newest achievement of the last 7 days as a badge', () => {
    const achievements = [
      { kind: 'good_grades', count: 10, date: '2026-11-16' },
      { kind: 'no_absence', count: 7, date: '2026-11-12' },
    ];
    expect(board({ achievements })).toEqual({ facts: [{ look: 'badge', label: 'dobrych ocen z rzędu', value: '10', mark: 'Brawo!' }] });
    // Thursday the 12th is the first of the 7 days; Wednesday the 11th is past.
    expect(board({ achievements: [{ kind: 'no_absence', count: 30, date: '2026-11-12' }] })?.facts?.[0]?.value).toBe('30');
    expect(board({ achievements: [{ kind: 'no_absence', count: 30, date: '2026-11-11' }] })).toBeNull();
    expect(board({ achievements: [{ kind: 'not_a_kind', count: 3, date: '2026-11-18' }] })).toBeNull();
    // Already true when the bridge first read its kind: never told, so no badge celebrates it.
    expect(board({ achievements: [{ kind: 'sixes', count: 5, date: '2026-11-17', announced: false }] })).toBeNull();
    expect(board({ achievements: [{ kind: 'sixes', count: 5, date: '2026-11-17', announced: true }] })?.facts?.[0]).toEqual({
      look: 'badge',
      label: 'szóstek w tym roku szkolnym',
      value: '5',
      mark: 'Brawo!',
    });
    expect(board({ achievements: [{ kind: 'subject_star', count: 1, date: '2026-11-17', subject: 'Fizyka' }] })?.facts?.[0]?.value).toBe('Fizyka');
    expect(board({})).toBeNull();
  });
});

describe('the sensor', () => {
  it('of a kindergarten child has no state and no good_grades', () => {
    const s = streaks({
      grades: null,
      markedDays: ['2026-11-16', '2026-11-17'],
      absenceDays: [],
      negativeNoteDays: null,
      yearStart: '2026-09-01',
      today: '2026-11-18',
    });
    // Its progress: the runs of days and the months it has, nothing of grades.
    expect(renderStreaks(s)).toEqual({
      state: null,
      attributes: {
        days_without_absence: 2,
        achievements: [],
        progress: { no_absence: { count: 2, next: 7 }, full_month: { count: 0, next: 1 } },
      },
    });
  });
});

describe.skipIf(skipWithoutJinja())("the child view's card", () => {
  it('lists the runs and the achievements, the newest first, with their days', async () => {
    const e = new ChildEntities({ id: 'ania', name: 'Ania', entities: [streaksEntity] });
    const block = streaksFeature.dashboard!.child!.find((c) => c.section === 'grades')!.block;
    const card = block(e, DASHBOARD_TEXT.pl, { language: 'pl', base: undefined }) as { card: { content: string } };
    const attributes = {
      good_grades: 10,
      days_without_absence: 4,
      days_without_negative_note: 31,
      achievements: [
        { kind: 'good_grades', count: 10, date: '2026-11-18' },
        { kind: 'subject_star', count: 1, date: '2026-11-17', subject: 'Fizyka' },
        { kind: 'praise', count: 3, date: '2026-11-16' },
        { kind: 'semester_without_one', count: 1, date: '2026-11-13' },
        { kind: 'honours', count: 1, date: '2026-11-12' },
        { kind: 'first_six', count: 1, date: '2026-10-22' },
      ],
    };
    const [result] = await renderTemplates([
      { template: card.card.content, variables: {}, states: { 'sensor.ania_streaks': { state: '10', attributes } }, strict: true },
    ]);
    expect(result).toEqual({
      value: [
        '#### Serie',
        '',
        '- Dobre oceny z rzędu: **10**',
        '- Dni szkolne bez nieobecności: **4**',
        '- Dni szkolne bez negatywnej uwagi: **31**',
        '',
        '**Osiągnięcia w tym roku szkolnym**',
        '- 🏆 śr. 18.11: 10 dobrych ocen z rzędu',
        '- 🏆 wt. 17.11: Gwiazda przedmiotu: Fizyka',
        '- 🏆 pon. 16.11: Pochwały: 3',
        '- 🏆 pt. 13.11: Semestr bez jedynki: I',
        '- 🏆 czw. 12.11: Świadectwo z paskiem w prognozie',
        '- 🏆 czw. 22.10: Pierwsza szóstka',
      ].join('\n'),
    });
  });
});
