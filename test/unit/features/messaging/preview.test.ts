// The list preview (base64 of UTF-8 cut at a byte count) and the message sensors built from a list.
import { describe, expect, it } from 'vitest';
import { decodePreview, htmlToText, messageDate, messageEvents, messagesView } from '../../../../src/rules/messages.js';
import { decodeMessage } from '../../../../src/rules/message-text.js';
import { messageEvent, renderMessages } from '../../../../src/features/messages/messages.js';
import type { PayloadOf } from '../../../../src/features/kit/contract.js';
import type { NewsItem } from '../../../../src/rules/news.js';
import type { MessageItem, UnreadCounts } from '../../../../src/portal/schemas/messages.js';
import { UNTITLED } from '../../../../src/i18n/school-words.js';

/** base64 of the first `bytes` bytes of the UTF-8 of text. */
const cut = (text: string, bytes: number) => Buffer.from(text, 'utf8').subarray(0, bytes).toString('base64');

describe('decodePreview', () => {
  it.each([
    ['ą', 'Będzie wycieczka do Krakowa — zbiórka o 7:30 przed szkołą', 'Będzie wycieczka do Krakowa — zbiórka o 7:30 przed szkołą'.indexOf('ą')],
    ['ż', 'Proszę o przyniesienie książki na zajęcia z plastyki', 'Proszę o przyniesienie książki'.indexOf('ż')],
  ])('drops a %s cut in half and keeps everything before it', (_char, text, charIndex) => {
    const bytesBefore = Buffer.byteLength(text.slice(0, charIndex), 'utf8');
    const preview = decodePreview(cut(text, bytesBefore + 1));
    expect(preview).toBe(text.slice(0, charIndex).trim());
    expect(preview).not.toContain('\uFFFD');
  });

  it('drops a cut four-byte character and a cut entity or tag at the end', () => {
    expect(decodePreview(cut('Brawo 🎉', Buffer.byteLength('Brawo ', 'utf8') + 2))).toBe('Brawo');
    expect(decodePreview(Buffer.from('Zebranie &amp; wywiadów&nb').toString('base64'))).toBe('Zebranie & wywiadów');
    expect(decodePreview(Buffer.from('Dzień dobry<br>Zapraszam <a href="http://x').toString('base64'))).toBe('Dzień dobry Zapraszam');
  });

  it('reads base64 whose padding was cut off and gives undefined for nothing', () => {
    const b64 = Buffer.from('Dzień dobry, zapraszam', 'utf8').toString('base64').replace(/=+$/, '');
    expect(decodePreview(b64)).toBe('Dzień dobry, zapraszam');
    expect(decodePreview(undefined)).toBeUndefined();
    expect(decodePreview('')).toBeUndefined();
  });

  it('cuts a long preview to the limit', () => {
    const long = Buffer.from('x'.repeat(900)).toString('base64');
    expect(decodePreview(long)).toHaveLength(500);
    expect(decodePreview(long)?.endsWith('…')).toBe(true);
  });
});

describe('htmlToText', () => {
  it('unwraps the full message and turns breaks and entities into text', () => {
    const html =
      '<Message><Content><![CDATA[<p>Szanowni Państwo,</p><p>zebranie o 17:30 &ndash; sala&nbsp;12 &#261;&#x17C; &bogus; Kr&Oacute;L</p>]]></Content></Message>';
    expect(htmlToText(decodeMessage(Buffer.from(html).toString('base64')))).toBe('Szanowni Państwo, zebranie o 17:30 – sala 12 ąż &bogus; KrÓL');
  });
});

const item = (over: Partial<MessageItem>): MessageItem => ({
  id: '1',
  sender: 'Anna Nowak',
  topic: 'Temat',
  content: undefined,
  sendDate: '2026-11-19 14:02:11',
  read: false,
  hasAttachments: false,
  ...over,
});

const unreadMessagesEntity = (counts: UnreadCounts) => renderMessages(messagesView(counts, [], UNTITLED.pl), 'pl').unread_messages;
const newestMessageEntity = (inbox: MessageItem[]) => renderMessages(messagesView({ inbox: 0 }, inbox, UNTITLED.pl), 'pl').newest_message;
/** What the event gate fires for new messages: the fields the message event declares, with the event type first. */
const fired = (items: NewsItem<PayloadOf<typeof messageEvent>>[]) =>
  items.map((i) => ({ id: i.id, payload: { event_type: messageEvent.key, ...i.payload } }));

describe('message sensors and events', () => {
  it("unread_messages is the inbox count with every mailbox's counter as attributes", () => {
    const counts = { inbox: 3, notes: 1, alerts: 0, archiveInbox: 0 };
    expect(unreadMessagesEntity(counts)).toEqual({
      state: '3',
      attributes: {
        mailboxes: [
          { mailbox: 'inbox', name: 'Odebrane', unread: 3 },
          { mailbox: 'notes', name: 'Notatki', unread: 1 },
          { mailbox: 'alerts', name: 'Alerty', unread: 0 },
          { mailbox: 'archiveInbox', name: 'Archiwum – Odebrane', unread: 0 },
        ],
      },
    });
  });

  it('newest_message is the newest by send date, whatever the list order', () => {
    const state = newestMessageEntity([
      item({ id: '5', topic: 'Starsza', sendDate: '2026-11-18 10:00:00' }),
      item({ id: '7', topic: 'Nowsza', sendDate: '2026-11-19 09:00:00', read: true, hasAttachments: true }),
    ]);
    expect(state).toMatchObject({ state: 'Nowsza', attributes: { id: '7', read: true, has_attachments: true, date: '2026-11-19T09:00:00+01:00' } });
    expect(newestMessageEntity([])).toEqual({ state: null, attributes: {} });
  });

  it('newest_message lists every unread message among the listed, newest first, a read one left out', () => {
    const state = newestMessageEntity([
      item({ id: '5', topic: 'Starsza nieprzeczytana', sendDate: '2026-11-17 10:00:00' }),
      item({ id: '6', topic: 'Przeczytana', sendDate: '2026-11-18 10:00:00', read: true }),
      item({ id: '7', topic: 'Nowsza nieprzeczytana', sendDate: '2026-11-19 09:00:00' }),
    ]);
    expect(state?.attributes.unread).toEqual([
      { id: '7', topic: 'Nowsza nieprzeczytana', sender: 'Anna Nowak', date: '2026-11-19T09:00:00+01:00' },
      { id: '5', topic: 'Starsza nieprzeczytana', sender: 'Anna Nowak', date: '2026-11-17T10:00:00+01:00' },
    ]);
  });

  it('dates carry the Warsaw offset of their day (summer time too)', () => {
    expect(messageDate('2026-06-01 08:00:00')).toBe('2026-06-01T08:00:00+02:00');
    expect(messageDate('2026-01-10T08:00:00')).toBe('2026-01-10T08:00:00+01:00');
  });

  it('events use the message id, so one message fires once', () => {
    const events = fired(messageEvents('inbox', [item({ id: '42', content: Buffer.from('Treść').toString('base64') })], UNTITLED.pl));
    expect(events).toEqual([
      {
        id: '42',
        payload: {
          event_type: 'message',
          id: '42',
          mailbox: 'inbox',
          sender: 'Anna Nowak',
          topic: 'Temat',
          preview: 'Treść',
          date: '2026-11-19T14:02:11+01:00',
          has_attachments: false,
        },
      },
    ]);
  });

  it('an event of a message already read in the app says read: true; an unread one has no read field', () => {
    const [read, unread] = fired(
      messageEvents('inbox', [item({ id: '44', read: true }), item({ id: '45', read: false })], UNTITLED.pl).sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(read?.payload.read).toBe(true);
    expect(unread?.payload).not.toHaveProperty('read');
  });

  it("an event's preview is decoded and at most 200 characters (what a phone notification shows)", () => {
    const long = `Szanowni Pa&#324;stwo,<br>${'wycieczka '.repeat(60)}`;
    const [event] = fired(messageEvents('inbox', [item({ id: '43', content: Buffer.from(long).toString('base64') })], UNTITLED.pl));
    const preview = event?.payload.preview ?? '';
    expect([...preview]).toHaveLength(200);
    expect(preview.startsWith('Szanowni Państwo, wycieczka')).toBe(true);
    expect(preview.endsWith('…')).toBe(true);
    // An automation reads the fields the message event declares; a name it does not publish fails to compile.
    // @ts-expect-error -- misspelled: the field is preview
    expect(event?.payload.preveiw).toBeUndefined();
    // @ts-expect-error -- misspelled: the field is has_attachments
    expect(event?.payload.hasAttachments).toBeUndefined();
    expect(event?.payload.has_attachments).toBe(false);
  });
});
