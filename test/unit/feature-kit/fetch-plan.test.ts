import { describe, expect, it } from 'vitest';
import { allNamed } from '../../../src/feature-kit/fetch-plan.js';

describe('allNamed', () => {
  it('answers each piece of work by its name, whatever finishes first', async () => {
    let release: (value: string) => void = () => {};
    const slow = new Promise<string>((resolve) => (release = resolve));
    const answers = allNamed({ slow, fast: Promise.resolve(2), skipped: undefined });
    release('late');
    expect(await answers).toEqual({ slow: 'late', fast: 2, skipped: undefined });
  });

  it('fails as soon as one piece fails', async () => {
    await expect(allNamed({ ok: Promise.resolve(1), bad: Promise.reject(new Error('refused')) })).rejects.toThrow('refused');
  });
});
