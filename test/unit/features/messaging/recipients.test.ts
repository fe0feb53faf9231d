// Matching a configured teacher's name against the receivers lists.
import { describe, expect, it } from 'vitest';
import { byName, nameKey } from '../../../../src/features/messaging/recipients.js';
import type { MessageNotSentError } from '../../../../src/features/messaging/errors.js';

const receivers = [
  { accountId: '1', label: 'Nowak Anna' },
  { accountId: '2', label: 'Wiśniewski Piotr' },
  { accountId: '3', label: 'mgr Łukasz Żak (matematyka)' },
  { accountId: '1', label: 'Anna Nowak' },
  { accountId: '4', label: 'Nowak-Kowalska Anna' },
];

describe('recipient names', () => {
  it('ignores case, diacritics, word order, titles and notes in brackets', () => {
    expect(nameKey('Łukasz ŻAK')).toBe(nameKey('mgr Żak Łukasz (matematyka)'));
    expect(byName('anna nowak', receivers, 't')).toEqual({ accountId: '1', label: 'Nowak Anna' });
    expect(byName('Piotr Wisniewski', receivers, 't').accountId).toBe('2');
    expect(byName('lukasz zak', receivers, 't').accountId).toBe('3');
    expect(byName('Anna Nowak-Kowalska', receivers, 't').accountId).toBe('4');
  });

  it('refuses a name that fits several people, or nobody', () => {
    const twice = [...receivers, { accountId: '9', label: 'Anna Nowak' }];
    const refuse = (name: string, list = receivers) => {
      try {
        byName(name, list, 'teacher');
      } catch (error) {
        return error as MessageNotSentError;
      }
      throw new Error('expected a refusal');
    };
    expect(refuse('Anna Nowak', twice).fields).toEqual({ sent: false, code: 'recipient_ambiguous' });
    expect(refuse('Anna').code).toBe('recipient_unknown');
    expect(refuse('Zofia Nowak').code).toBe('recipient_unknown');
    expect(refuse('   ').code).toBe('recipient_unknown');
  });
});
