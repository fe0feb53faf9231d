// The `grading` keys: `thresholds`, the school statute's averages for grades 2..6, five increasing
// numbers between 1 and 6, and `average`, weighted or arithmetic; refused with the key named otherwise.
import { describe, expect, it } from 'vitest';
import { buildMinimal as build, refusal } from '../../helpers/config.js';

describe('config grading.thresholds', () => {
  it('defaults to the common statute, and a config without grading gets its own copy', async () => {
    const a = await build({});
    expect(a.grading.thresholds).toEqual([1.75, 2.75, 3.75, 4.75, 5.5]);
    a.grading.thresholds[0] = 9;
    expect((await build({ grading: {} })).grading.thresholds).toEqual([1.75, 2.75, 3.75, 4.75, 5.5]);
  });

  it("takes a school's own thresholds", async () => {
    expect((await build({ grading: { thresholds: [1.6, 2.6, 3.6, 4.6, 5.6] } })).grading.thresholds).toEqual([1.6, 2.6, 3.6, 4.6, 5.6]);
    expect((await build({ grading: { thresholds: [1, 2, 3, 4, 6] } })).grading.thresholds).toEqual([1, 2, 3, 4, 6]);
  });

  it.each([
    ['four numbers', [2, 3, 4, 5], /five numbers/],
    ['six numbers', [1.5, 2, 3, 4, 5, 5.5], /five numbers/],
    ['a decreasing pair', [1.75, 3.75, 2.75, 4.75, 5.5], /increase/],
    ['two equal numbers', [1.75, 2.75, 2.75, 4.75, 5.5], /increase/],
    ['a number above 6', [1.75, 2.75, 3.75, 4.75, 6.5], /at most 6/],
    ['a number below 1', [0.5, 2.75, 3.75, 4.75, 5.5], /at least 1/],
    ['text', ['2', 3, 4, 5, 5.5], /thresholds/],
    ['one number', 3.5, /five numbers/],
  ])('refuses %s, naming the key', async (_what, thresholds, reason) => {
    const message = await refusal({ grading: { thresholds } });
    expect(message).toContain('grading.thresholds');
    expect(message).toMatch(reason);
  });

  it('counts a weighted average unless grading.average says arithmetic, and refuses anything else naming the key', async () => {
    expect((await build({})).grading.average).toBe('weighted');
    expect((await build({ grading: { average: 'arithmetic' } })).grading.average).toBe('arithmetic');
    const message = await refusal({ grading: { average: 'plain' } });
    expect(message).toContain('grading.average');
    expect(message).toMatch(/weighted or arithmetic/);
  });

  it('refuses an unknown key under grading', async () => {
    expect(await refusal({ grading: { threshold: [1, 2, 3, 4, 5] } })).toContain('grading');
  });
});
