import { describe, expect, it } from 'vitest';
import { moved } from '../../src/i18n/lesson-words.js';

describe('a lesson moved elsewhere, in words', () => {
  it('says the day with its weekday and the lesson, in each language', () => {
    expect(moved('pl', 'to', '2026-11-26', 7)).toBe('przeniesiona na czw. 26.11, lekcja 7');
    expect(moved('en', 'to', '2026-11-26', 7)).toBe('moved to Thu 26.11, lesson 7');
    expect(moved('pl', 'to', '2026-11-30', null)).toBe('przeniesiona na pon. 30.11');
    expect(moved('uk', 'to', '2026-11-26', 7)).toBe('перенесено на чт 26.11, урок 7');
  });

  it('says where a lesson moved in came from, in the same shape', () => {
    expect(moved('pl', 'from', '2026-11-24', 5)).toBe('przeniesiona z wt. 24.11, lekcja 5');
    expect(moved('en', 'from', '2026-11-24', 5)).toBe('moved from Tue 24.11, lesson 5');
    expect(moved('uk', 'from', '2026-11-24', null)).toBe('перенесено з вт 24.11');
  });
});
