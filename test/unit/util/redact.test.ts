// The one redaction (util/redact.ts) masks by position, whatever the secret looks like: letters alone,
// digits alone, mixed; and cuts every known login and e-mail to its hint, in any case.
import { describe, expect, it } from 'vitest';
import { KnownNames, redact, redactAndCut, redactPath } from '../../../src/util/redact.js';

const SHAPES = ['abcdefghijklmnopqrstuvwx', '918273645501928374', 'a1B2-c3_D4e5'];

describe('redact', () => {
  it.each(SHAPES)('masks the token login’s segment %s by its place', (token) => {
    const line = `GET /loguj/token/${token}/przenies/uczen/widok/centrum_powiadomien failed: other side closed`;
    const out = redact(line, new KnownNames());
    expect(out).not.toContain(token);
    expect(out).toContain('/loguj/token/…/przenies/uczen');
    expect(redactPath(`/loguj/token/${token}/przenies`)).toBe('/loguj/token/…/przenies');
  });

  it.each(SHAPES)('masks a secret-named query value %s and leaves the others', (secret) => {
    for (const key of ['token', 'access_token', 'key', 'code', 'state', 'password', 'PHPSESSID', 'auth', 'pushDevice']) {
      const out = redact(`https://example.test/path?client_id=46&${key}=${secret}&action=x`, new KnownNames());
      expect(out, key).not.toContain(secret);
      expect(out, key).toContain(`${key}=…`);
      expect(out, key).toContain('client_id=46');
      expect(out, key).toContain('action=x');
    }
  });

  it('masks a URL’s user and password', () => {
    expect(redact('connecting to mqtts://bridge:s3cret@broker.local:8883', new KnownNames())).toBe('connecting to mqtts://…@broker.local:8883');
  });

  it('cuts every known login and e-mail to its hint, in any case, the longest first', () => {
    const names = new KnownNames();
    names.addConfig({ accounts: [{ login: '1234567u' }], families: [{ email: 'Rodzic@Example.com', children: [{ login: 'abcdefgh' }] }] });
    names.add('rodzic', '', undefined);
    const out = redact('{"account":"1234567U","email":"rodzic@example.com","child":"abcdefgh","msg":"rodzic went"}', names);
    expect(out).toBe('{"account":"12…U","email":"ro…m","child":"ab…h","msg":"ro…c went"}');
    expect(JSON.parse(out)).toBeTruthy();
  });

  it.each(SHAPES)("masks Home Assistant's token %s whole wherever it stands, named by the config", (token) => {
    const names = new KnownNames();
    names.addConfig({ accounts: [], homeassistant: { token } });
    expect(redact(`POST /api/services/todo/add_item failed: Authorization: Bearer ${token} (${token})`, names)).toBe(
      'POST /api/services/todo/add_item failed: Authorization: Bearer … (…)',
    );
  });

  it('leaves a line with nothing secret as it is', () => {
    const line = 'pass done tiers=["normal"] ms=850 GET /gateway/api/2.0/Grades -> 200';
    expect(redact(line, new KnownNames())).toBe(line);
  });
});

describe('redactAndCut', () => {
  it('masks a secret the cut would split, and only then cuts', () => {
    const names = new KnownNames();
    const token = 'ha-long-lived-token-Zq8w3Lx0Vb7n';
    names.secret(token);
    const said = `${'x'.repeat(190)} Bearer ${token} refused`;
    const out = redactAndCut(said, 200, names);
    expect(out.length).toBeLessThanOrEqual(200);
    for (let i = 0; i + 8 <= token.length; i++) expect(out).not.toContain(token.slice(i, i + 8));
    expect(out).toContain('Bearer …');
    expect(redactAndCut('short', 200, names)).toBe('short');
    expect(redactAndCut(`?key=${'k'.repeat(300)}`, 50, names)).toBe('?key=…');
  });
});
