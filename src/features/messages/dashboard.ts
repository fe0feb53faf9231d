// The messages on the dashboard: the unread count in the family view's summary; a kindergarten child's news in
// its column (the newest message and announcement, where a school child has its tests); and in the child's own
// view the newest inbox message, the button that opens it (after a confirmation: the portal then marks it read)
// and the opened message whole, its attachments linked to the bridge's web server. Templates beside.
import { buttonRow, ifKnown, markdown, type Card } from '../screens/cards.js';
import { keyed, reads } from '../screens/templates.js';
import type { DashboardPart } from '../screens/parts.js';
import { newestMessage, unreadMessages } from './entities.js';
import { openedMessageEntity, openMessageButton } from '../opened-message/opened-message.js';
import { newestNotice } from '../notices/notices.js';

export const messagesDashboard: DashboardPart = {
  fact: { entity: unreadMessages, icon: '✉️' },
  family: [
    {
      at: 'news',
      // A line each, without a frame (as the summary: the view must fit a tablet).
      block: (e, t) =>
        !e.preschool
          ? undefined
          : ifKnown(e, [newestMessage, newestNotice], () =>
              markdown(
                e,
                t,
                'features/messages/news',
                { message: reads(newestMessage, 'sender', 'date', 'read'), notice: reads(newestNotice, 'start_date') },
                { text_only: true },
              ),
            ),
    },
  ],
  child: [
    {
      section: 'messages',
      block: (e, t, { base }) => {
        if (!e.has(newestMessage)) return undefined;
        const cards: Card[] = [
          markdown(e, t, 'features/messages/message-newest', {
            ...keyed(newestMessage, 'id', 'sender', 'date', 'read', 'preview', 'unread'),
            ...keyed(unreadMessages),
          }),
        ];
        if (e.has(openMessageButton))
          cards.push({ type: 'entities', entities: [buttonRow(e.id(openMessageButton), t.openMessage, t.openAction, t.confirmOpen)] });
        // A saved attachment links to the board's own address (base) + its url; without a base it is named only.
        if (e.has(openedMessageEntity))
          cards.push(
            markdown(e, t, 'features/messages/message-opened', {
              ...keyed(openedMessageEntity, 'sender', 'date', 'withdrawn', 'text', 'truncated', 'attachments'),
              base: { text: base },
            }),
          );
        return { type: 'vertical-stack', cards };
      },
    },
  ],
};
