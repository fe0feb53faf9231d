// Portal timestamps as published (interface section 3): ISO 8601 with the Warsaw offset, summer and winter.
import { describe, expect, it } from 'vitest';
import { portalTime } from '../../../src/rules/portal-values.js';

describe('portalTime', () => {
  it.each([
    ['2026-11-18 09:10:00', '2026-11-18T09:10:00+01:00'],
    ['2026-06-01 17:05:33', '2026-06-01T17:05:33+02:00'],
    ['2026-11-18T09:10:00', '2026-11-18T09:10:00+01:00'],
    [' 2026-11-18 09:10 ', '2026-11-18T09:10:00+01:00'],
    ['2026-11-18T08:10:00Z', '2026-11-18T09:10:00+01:00'],
    ['2026-06-01T17:05:33+02:00', '2026-06-01T17:05:33+02:00'],
    ['2026-11-18', '2026-11-18'],
  ])('%s is %s', (raw, published) => {
    expect(portalTime(raw)).toBe(published);
  });

  it.each([undefined, null, '', 'wczoraj', '2026-13-45 99:99:99'])('%s is unknown', (raw) => {
    expect(portalTime(raw)).toBeUndefined();
  });
});
