// What the login's POST answers mean (issue 27): only words about the login, the password or the
// account make a wrong password; an answer without status, not JSON, or a refusal about something else
// is a changed login. And x-baner as the notes describe it.
import { describe, expect, it } from 'vitest';
import { readLoginAnswer, xBaner } from '../../../src/portal/login.js';

describe('readLoginAnswer', () => {
  it.each([
    ['{"status":"ok","goTo":"/OAuth/Authorization/2FA?client_id=46"}', { kind: 'ok', goTo: '/OAuth/Authorization/2FA?client_id=46' }],
    ['{"status":"ok"}', { kind: 'ok' }],
    ['{"goTo":"/OAuth/Authorization/2FA?client_id=46"}', { kind: 'ok', goTo: '/OAuth/Authorization/2FA?client_id=46' }],
    [
      '{"status":"error","errors":[{"message":"Nieprawidłowy login i/lub hasło."}]}',
      { kind: 'refused', aboutCredentials: true, words: 'Nieprawidłowy login i/lub hasło.' },
    ],
    ['{"status":"error","errors":["Konto zostało zablokowane."]}', { kind: 'refused', aboutCredentials: true, words: 'Konto zostało zablokowane.' }],
    ['{"status":"error","errors":["Invalid password"]}', { kind: 'refused', aboutCredentials: true, words: 'Invalid password' }],
    [
      '{"status":"error","errors":["Wystąpił błąd. Odśwież stronę i spróbuj ponownie."]}',
      { kind: 'refused', aboutCredentials: false, words: 'Wystąpił błąd. Odśwież stronę i spróbuj ponownie.' },
    ],
    ['{"status":"error"}', { kind: 'refused', aboutCredentials: false }],
    ['{"goTo":""}', { kind: 'unknown', what: 'the answer has no status' }],
    ['{"status":"pending"}', { kind: 'unknown', what: 'the answer has an unknown status' }],
    ['<html><title>403 Forbidden</title></html>', { kind: 'unknown', what: 'the answer is not JSON' }],
    ['', { kind: 'unknown', what: 'the answer is not JSON' }],
    ['[1]', { kind: 'unknown', what: 'the answer is not a JSON object' }],
  ])('%s', (text, expected) => {
    expect(readLoginAnswer(text)).toEqual(expected);
  });
});

describe('xBaner', () => {
  it('moves each character of both numbers up by 20 code points, joined by _', () => {
    expect(xBaner(0.8868, 1795000000000)).toBe('DBLLJL_EKMIDDDDDDDDD');
  });
});
