// The messages feature: its entities, and unread_messages / newest_message rendered from the view the
// school rule makes of the counters and the inbox.
import { describe, expect, it } from 'vitest';
import { messages, renderMessages } from '../../../../src/features/messages/messages.js';
import type { MessagesView } from '../../../../src/rules/messages.js';
import { entityTable } from '../../../helpers/entities.js';

const view: MessagesView = {
  unread: 2,
  counts: { inbox: 2, alerts: 1 },
  newest: { id: 'm9', topic: 'Wycieczka', sender: 'Anna Nowak', date: '2026-11-20', read: false, hasAttachments: true, preview: 'Zgoda rodziców' },
  unreadListed: [
    { id: 'm9', topic: 'Wycieczka', sender: 'Anna Nowak', date: '2026-11-20', read: false, hasAttachments: true, preview: 'Zgoda rodziców' },
    { id: 'm7', topic: 'Zebranie', sender: 'Ewa Szymańska', date: '2026-11-18', read: false, hasAttachments: false, preview: null },
  ],
};

describe('messages feature', () => {
  it('declares unread_messages, newest_message and the message event', () => {
    expect(entityTable(messages.entities)).toEqual([
      ['unread_messages', 'sensor', true],
      ['newest_message', 'sensor', true],
      ['message', 'event', false],
    ]);
  });

  it("renders the inbox count with every mailbox's counter by its key and name, the newest message with its sender and preview, and the unread ones listed", () => {
    const states = renderMessages(view, 'en');
    expect(states.unread_messages).toEqual({
      state: '2',
      attributes: {
        mailboxes: [
          { mailbox: 'inbox', name: 'Inbox', unread: 2 },
          { mailbox: 'alerts', name: 'Alerts', unread: 1 },
        ],
      },
    });
    expect(states.newest_message?.state).toBe('Wycieczka');
    expect(states.newest_message?.attributes).toEqual({
      id: 'm9',
      sender: 'Anna Nowak',
      date: '2026-11-20',
      read: false,
      has_attachments: true,
      preview: 'Zgoda rodziców',
      unread: [
        { id: 'm9', topic: 'Wycieczka', sender: 'Anna Nowak', date: '2026-11-20' },
        { id: 'm7', topic: 'Zebranie', sender: 'Ewa Szymańska', date: '2026-11-18' },
      ],
    });
  });

  it('renders both unknown without the messages module, and a message without a topic as such', () => {
    expect(renderMessages(null, 'pl')).toEqual({ unread_messages: { state: null, attributes: {} }, newest_message: { state: null, attributes: {} } });
    const untitled = renderMessages({ ...view, newest: { ...(view.newest as NonNullable<MessagesView['newest']>), topic: '' } }, 'en');
    expect(untitled.newest_message?.state).toBe('(no topic)');
  });

  it("names every mailbox in the family's language, an archive as one, and keeps the portal's key beside the name", () => {
    const counts = { inbox: 1, notes: 0, justifications: 0, archiveInbox: 0, archiveSubstitutions: 2 };
    const names = (language: 'pl' | 'en' | 'uk') =>
      renderMessages({ ...view, counts }, language).unread_messages!.attributes?.mailboxes?.map((m) => `${m.mailbox}: ${m.name}`);
    expect(names('pl')).toEqual([
      'inbox: Odebrane',
      'notes: Notatki',
      'justifications: Usprawiedliwienia',
      'archiveInbox: Archiwum – Odebrane',
      'archiveSubstitutions: Archiwum – Zastępstwa',
    ]);
    expect(names('uk')).toEqual([
      'inbox: Вхідні',
      'notes: Нотатки',
      'justifications: Пояснення відсутностей',
      'archiveInbox: Архів – Вхідні',
      'archiveSubstitutions: Архів – Заміни',
    ]);
    expect(names('en')?.at(-1)).toBe('archiveSubstitutions: Archive – Substitutions');
    // No attribute key is the portal's camelCase: the keys are data, under `mailboxes`.
    expect(Object.keys(renderMessages({ ...view, counts }, 'pl').unread_messages!.attributes ?? {})).toEqual(['mailboxes']);
    const untitled = renderMessages({ ...view, newest: { ...(view.newest as NonNullable<MessagesView['newest']>), topic: '' } }, 'pl');
    expect(untitled.newest_message?.state).toBe('(bez tematu)');
  });
});
