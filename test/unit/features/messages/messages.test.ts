// The messages feature: its entities, and unread_messages / newest_message rendered from the view the
// school rule makes of the counters and the inbox.
import { describe, expect, it } from 'vitest';
import { messages, renderMessages } from '../../../../src/features/messages/messages.js';
import type { MessagesView } from '../../../../src/school/messages.js';
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

  it('renders the inbox count with every counter, the newest message with its sender and preview, and the unread ones listed', () => {
    const states = renderMessages(view);
    expect(states.unread_messages).toEqual({ state: '2', attributes: { inbox: 2, alerts: 1 } });
    expect(states.newest_message.state).toBe('Wycieczka');
    expect(states.newest_message.attributes).toEqual({
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
    expect(renderMessages(null)).toEqual({ unread_messages: { state: null, attributes: {} }, newest_message: { state: null, attributes: {} } });
    const untitled = renderMessages({ ...view, newest: { ...(view.newest as NonNullable<MessagesView['newest']>), topic: null } });
    expect(untitled.newest_message.state).toBe('(no topic)');
  });
});
