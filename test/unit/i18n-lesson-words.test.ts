import { describe, expect, it } from 'vitest';
import { movedTo, shortDay } from '../../src/i18n/lesson-words.js';

describe('a lesson moved elsewhere, in words', () => {
  it('says the day with its weekday and the lesson, in each language', () => {
    expect(movedTo('pl', shortDay('2026-11-26', 'pl'), '7')).toBe('przeniesiona na czw. 26.11, lekcja 7');
    expect(movedTo('en', shortDay('2026-11-26', 'en'), '7')).toBe('moved to Thu 26.11, lesson 7');
    expect(movedTo('pl', shortDay('2026-11-30', 'pl'), null)).toBe('przeniesiona na pon. 30.11');
    expect(movedTo('uk', shortDay('2026-11-26', 'uk'), '7')).toBe('перенесено на чт 26.11, урок 7');
  });
});
