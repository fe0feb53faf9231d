// Who `write` goes to: a recipient option, class_tutor, or a person's name that matches one person.
import { describe, expect, it } from 'vitest';
import { personName, pickTarget, type WriteTarget } from '../../../../src/features/messaging/write-targets.js';
import { MessageNotSentError } from '../../../../src/features/messaging/errors.js';

const TARGETS: WriteTarget[] = [
  { option: 'Matematyka – Piotr Wiśniewski', accountId: '1', person: 'Piotr Wiśniewski' },
  { option: 'Informatyka – Piotr Wiśniewski', accountId: '1', person: 'Piotr Wiśniewski' },
  { option: 'Język polski – Anna Nowak', accountId: '2', person: 'Anna Nowak' },
  { option: 'Plastyka – Anna Nowak', accountId: '3', person: 'Anna Nowak' },
  { option: 'Wychowawca – Anna Nowak', accountId: '2', person: 'Anna Nowak' },
];

function refused(to: string): MessageNotSentError {
  try {
    pickTarget(to, TARGETS);
  } catch (error) {
    expect(error).toBeInstanceOf(MessageNotSentError);
    return error as MessageNotSentError;
  }
  throw new Error(`${to} was not refused`);
}

describe('pickTarget', () => {
  it('takes an option as shown, class_tutor, and a name matching one person whatever their subjects', () => {
    expect(pickTarget('Plastyka – Anna Nowak', TARGETS).accountId).toBe('3');
    expect(pickTarget('class_tutor', TARGETS).accountId).toBe('2');
    expect(pickTarget('wisniewski piotr', TARGETS).accountId).toBe('1');
  });

  it('refuses a name of two people as ambiguous and an unknown one as unknown, with sent: false', () => {
    expect(refused('Anna Nowak').fields).toEqual({ sent: false, code: 'recipient_ambiguous' });
    expect(refused('Zofia Nieznana').fields).toEqual({ sent: false, code: 'recipient_unknown' });
    expect(refused('').fields).toEqual({ sent: false, code: 'recipient_unknown' });
  });

  it('names a person first name first', () => {
    expect(personName('Wiśniewski Piotr')).toBe('Piotr Wiśniewski');
    expect(personName('Biblioteka szkolna publiczna')).toBe('Biblioteka szkolna publiczna');
  });
});
