// Filling, escaping and encoding a fixed message (spec 4.8).
import { describe, expect, it } from 'vitest';
import { base64Utf8, composeMessage, fillPlaceholders, polishDate, sendBody, textToHtml } from '../../../../src/features/messaging/compose.js';
import type { Identity } from '../../../../src/engine/identity.js';

const identity: Identity = { firstName: 'Ania', lastName: 'Kowalska', userId: '1', className: '4b', fetchedAt: 0 };
// 23:30 UTC on 19 November is already 20 November in Warsaw.
const NOW = Date.parse('2026-11-19T23:30:00Z');

describe('compose', () => {
  it('fills the four placeholders, {date} as the Warsaw day in the Polish form', () => {
    const m = composeMessage(
      { topic: 'Nieobecność {first_name} {last_name} ({class})', body: 'W dniu {date} {first_name} nie przyjdzie. {other}' },
      identity,
      NOW,
    );
    expect(m.topic).toBe('Nieobecność Ania Kowalska (4b)');
    expect(m.text).toBe('W dniu 20.11.2026 Ania nie przyjdzie. {other}');
    expect(m.missing).toEqual([]);
    expect(polishDate(Date.parse('2026-06-30T22:30:00Z'))).toBe('01.07.2026');
  });

  it('reports a used placeholder whose value is not known yet', () => {
    const m = composeMessage({ topic: 'Klasa {class}', body: 'x' }, { ...identity, className: undefined }, NOW);
    expect(m.missing).toEqual(['class']);
    expect(fillPlaceholders('{first_name}', { first_name: undefined, last_name: 'a', class: 'b', date: 'c' }).text).toBe('{first_name}');
  });

  it('escapes the body as HTML and writes line breaks as <br>', () => {
    expect(textToHtml('a < b & "c" \'d\'\r\nx\ny\rz')).toBe('a &#60; b &#38; &#34;c&#34; &#39;d&#39;<br>x<br>y<br>z');
    const m = composeMessage({ topic: 'T\nz nową linią', body: '<b>Dzień dobry</b>\nPozdrawiam' }, identity, NOW);
    expect(m.topic).toBe('T z nową linią');
    expect(m.html).toBe('&#60;b&#62;Dzień dobry&#60;/b&#62;<br>Pozdrawiam');
  });

  it('sends topic and content as base64 of UTF-8 in the body shape of the spec', () => {
    expect(base64Utf8('Zażółć')).toBe(Buffer.from('Zażółć', 'utf8').toString('base64'));
    expect(sendBody('4417203', { topic: 'Temat ą', html: 'Treść<br>ż' })).toEqual({
      receivers: { schoolReceivers: [{ accountId: '4417203' }] },
      topic: Buffer.from('Temat ą').toString('base64'),
      content: Buffer.from('Treść<br>ż').toString('base64'),
      storageId: null,
      category: 'normal',
    });
  });
});
