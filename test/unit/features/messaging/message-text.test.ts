// A whole message as plain text (interface 7.2): the wrapper gone, line breaks kept, links with their
// real target, entities decoded, the length capped with `truncated`.
import { describe, expect, it } from 'vitest';
import { decodeMessage, messageText, realTarget } from '../../../../src/rules/message-text.js';

const wrapped = (html: string): string => Buffer.from(`<Message><Content><![CDATA[${html}]]></Content></Message>`, 'utf8').toString('base64');

describe('messageText', () => {
  it('decodes the wrapper and keeps <br> and paragraph breaks, at most one empty line', () => {
    const html = decodeMessage(wrapped('<p>Dzień dobry,</p>\n<p></p><p>zebranie<br/>w czwartek</p><div>Anna&nbsp;Nowak</div>'));
    expect(messageText(html)).toEqual({ text: 'Dzień dobry,\n\nzebranie\nw czwartek\n\nAnna Nowak', truncated: false });
  });

  it("gives a link its real target out of the portal's link proxy, and keeps a plain link once", () => {
    const proxied = '<a href="https://link.example/?url=https%3A%2F%2Fszkola.pl%2Fplan.pdf&amp;x=1" title="Uwaga">plan</a>';
    expect(messageText(`Zobacz ${proxied}.`).text).toBe('Zobacz plan (https://szkola.pl/plan.pdf).');
    expect(messageText('<a href="https://szkola.pl/">https://szkola.pl</a>').text).toBe('https://szkola.pl/');
    expect(messageText('<a href="javascript:alert(1)">kliknij</a>').text).toBe('kliknij');
    expect(realTarget('mailto:sekretariat@szkola.pl')).toBe('mailto:sekretariat@szkola.pl');
  });

  it('decodes entities and drops scripts, styles and comments', () => {
    expect(messageText('&bdquo;Ala&rdquo; &amp; kot &#8211; &#x141;&oacute;d&#378;<script>x()</script><style>p{}</style><!-- ukryte -->').text).toBe(
      '„Ala” & kot – Łódź',
    );
  });

  it('cuts at 8,000 characters and says so', () => {
    const long = messageText('ż'.repeat(9_000));
    expect(long.truncated).toBe(true);
    expect([...long.text]).toHaveLength(8_000);
    expect(long.text.endsWith('…')).toBe(true);
    expect(messageText('ż'.repeat(8_000)).truncated).toBe(false);
  });

  it('reads a body cut inside a character leniently', () => {
    const bytes = Buffer.from('Łódź', 'utf8').subarray(0, 4);
    expect(messageText(decodeMessage(bytes.toString('base64'))).text).toBe('Łó');
  });
});
