// The one redaction (util/redact.ts) masks by position, whatever the secret looks like: letters alone,
// digits alone, mixed; and cuts every known login and e-mail to its hint, in any case. Every secret it is
// told of is masked wherever it stands, in every form (interface 18.4), and no 12 of its characters are left.
import { describe, expect, it } from 'vitest';
import { FRAGMENT, KnownNames, redact, redactAndCut, redactPath } from '../../../src/util/redact.js';

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

/** Whether any FRAGMENT characters in a row of `secret` stand in `text`. */
function holdsPart(text: string, secret: string): boolean {
  for (let i = 0; i + FRAGMENT <= secret.length; i++) if (text.includes(secret.slice(i, i + FRAGMENT))) return true;
  return text.includes(secret);
}

describe('a secret told by value', () => {
  const password = 'Zażółć "gęś"/&%+ 2026-kot\\';
  const token = 'Zq8w3Lx0Vb7nT2mR5kP9sD1fG4hJ6cY8eU0iO3aW7qE';
  const names = new KnownNames();
  names.addConfig({ accounts: [{ login: '1234567u', password }], mqtt: { password: 'broker-pass-1' }, homeassistant: { token } });

  it('is masked as written, percent-encoded (either case, as a form), JSON-escaped (also as ASCII), after Bearer, in any position', () => {
    const percent = encodeURIComponent(password);
    const forms = [
      password,
      percent,
      percent.toLowerCase(),
      new URLSearchParams({ a: password }).toString().slice(2),
      JSON.stringify(password).slice(1, -1),
      JSON.stringify(password)
        .slice(1, -1)
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ];
    for (const form of forms) {
      for (const text of [form, `x${form}y`, `{"message":"${form} refused"}`, `Bearer ${form}`, `http://h/?a=1&q=${form}`]) {
        const out = redact(text, names);
        expect(holdsPart(out, form), `${text} -> ${out}`).toBe(false);
        expect(out).toContain('…');
      }
    }
    expect(redact('mqtt refused broker-pass-1 for ha', names)).toBe('mqtt refused … for ha');
  });

  it('of 12 characters or more, cut short by another (a message cut in the middle of it), leaves none of it', () => {
    const cut = `Authorization refused for ${token.slice(0, 20)}`;
    expect(redact(cut, names)).toBe('Authorization refused for …');
    expect(redact(`(${token.slice(7, 19)})`, names)).toBe('(…)');
    // Eleven of its characters are no part to guess from: left as they stand.
    expect(redact(`id ${token.slice(3, 14)}`, names)).toBe(`id ${token.slice(3, 14)}`);
  });

  it('a web address quoted percent-encoded masks its key by position too, unknown as it is', () => {
    const key = 'k3yNotToldToTheRedaction_0123456789abcdef';
    const quoted = encodeURIComponent(`http://192.168.1.5:8080/mcp?key=${key}&x=1`);
    const out = redact(`Invalid URL: ${quoted}`, new KnownNames());
    expect(out).not.toContain(key.slice(0, FRAGMENT));
    expect(out).toContain('%3Fkey%3D…%26x%3D1');
    expect(redact('Authorization: Bearer%20abcdefghijklmnop', new KnownNames())).toBe('Authorization: Bearer%20…');
  });

  it('cookies are masked whole, the newest 256 of them', () => {
    const cookies = new KnownNames();
    for (let i = 0; i < 300; i++) cookies.cookie(`cookie-value-${String(i).padStart(4, '0')}`);
    expect(redact('sid=cookie-value-0299 here', cookies)).toBe('sid=… here');
    expect(redact('old cookie-value-0000', cookies)).toBe('old cookie-value-0000');
  });
});

describe('many secrets held at once', () => {
  // The search reads a text once, by the first characters a secret could start with at each place; a text holding
  // any of hundreds of secrets and cookies, whole or cut, is masked as when it held only that one.
  it('masks each of hundreds, whole or any 12 of its characters, and leaves a near miss', () => {
    const names = new KnownNames();
    const secrets = Array.from({ length: 300 }, (_, i) => `secret-${String(i).padStart(3, '0')}-${'qwertyuiopasdfgh'.slice(i % 7)}`);
    const cookies = Array.from({ length: 256 }, (_, i) => `c00kie${String(i).padStart(4, '0')}`);
    for (const secret of secrets) names.secret(secret);
    for (const cookie of cookies) names.cookie(cookie);
    for (const [i, secret] of secrets.entries()) {
      const part = secret.slice(i % 5, (i % 5) + FRAGMENT);
      expect(redact(`whole ${secret} and part (${part})`, names)).toBe('whole … and part (…)');
    }
    for (const cookie of cookies) expect(redact(`sid=${cookie};`, names)).toBe('sid=…;');
    expect(redact(`near ${secrets[0]!.slice(0, FRAGMENT - 1)} c00kie025`, names)).toBe(`near ${secrets[0]!.slice(0, FRAGMENT - 1)} c00kie025`);
  });
});
