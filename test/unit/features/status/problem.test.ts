// The `problem` entity's advice in the configured language: the same facts and steps in Polish and English.
import { describe, expect, it } from 'vitest';
import { problemOn } from '../../../../src/features/status/problem.js';
import { problemAdvice } from '../../../../src/i18n/problem-advice.js';
import type { ProblemReason } from '../../../../src/portal/errors.js';
import { ConnectionError, WrongCredentialsError } from '../../../../src/portal/errors.js';

const NOW = Date.parse('2026-11-18T09:10:00+01:00');

describe('problem advice', () => {
  it('tells a Polish parent in Polish what to fix after a wrong password', () => {
    const { state, attributes } = problemOn(new WrongCredentialsError('rejected'), NOW, 'pl');
    expect(state).toBe('ON');
    expect(attributes.reason).toBe('wrong_credentials');
    expect(attributes.message).toMatch(/^Portal nie przyjął loginu lub hasła\./);
    expect(attributes.message).toContain('numeryczny login do dziennika konta rodzica (np. 1234567u)');
    expect(attributes.message).toContain('email:');
    expect(attributes.message).toContain('Popraw konfigurację');
  });

  it('speaks English for en, with the same reason code', () => {
    const { attributes } = problemOn(new ConnectionError('down', { status: 503 }), NOW, 'en');
    expect(attributes.reason).toBe('service_down');
    expect(attributes.message).toMatch(/^The portal is not answering/);
  });

  it('gives every reason advice in every language that names the same numbers, logins and keys', () => {
    // Facts a parent acts on: the example login, the waiting times, config keys such as data_dir.
    const facts = (text: string): string[] => [...(text.match(/\b\d\w*|\b[a-z]+_[a-z_]+\b/g) ?? [])].sort();
    // Every reason: the compiler holds this list to ProblemReason, as it holds the advice.
    const every: Record<ProblemReason, true> = {
      captcha_required: true,
      link_needs_action: true,
      login_changed: true,
      service_down: true,
      session_expired: true,
      storage_error: true,
      unexpected_response: true,
      wrong_credentials: true,
    };
    const reasons = Object.keys(every) as ProblemReason[];
    const advice = reasons.map(
      (reason) => [reason, { pl: problemAdvice(reason, 'pl'), en: problemAdvice(reason, 'en'), uk: problemAdvice(reason, 'uk') }] as const,
    );
    for (const [reason, text] of advice) {
      expect(text.pl, reason).not.toBe(text.en);
      expect(text.pl.length, reason).toBeGreaterThan(20);
      expect(facts(text.pl), reason).toEqual(facts(text.en));
      expect(facts(text.uk), reason).toEqual(facts(text.en));
      expect(text.uk, reason).toMatch(/[а-яіїєґ]{4}/);
    }
    expect(facts(Object.fromEntries(advice).wrong_credentials!.pl)).toEqual(['1234567u']);
  });
});
