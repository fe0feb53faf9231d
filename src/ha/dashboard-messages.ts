// The Messages card of a child's view: the newest inbox message (marked while unread), the button that
// opens it (after a confirmation: the portal then marks it read), and the opened message whole, its
// attachments as links to the bridge's web server. The templates: src/ha/templates/message-*.jinja.
import { confirmedButton } from './dashboard-details.js';
import { markdown, type Block, type Card } from './dashboard-cards.js';
import { keyed } from './dashboard-templates.js';
import { newestMessage, unreadMessages } from '../features/messages/messages.js';
import { openedMessageEntity, openMessageButton } from '../features/opened-message/opened-message.js';

/**
 * The Messages card: the newest message, the open button and the opened message, one below the
 * other; nothing for a child without the messages feature.
 */
export function messagesCard(base: string | undefined): Block {
  return (e, t) => {
    if (!e.has(newestMessage)) return undefined;
    const cards: Card[] = [
      markdown(e, t, 'message-newest', {
        ...keyed(newestMessage, 'sender', 'date', 'read', 'preview'),
        ...keyed(unreadMessages),
      }),
    ];
    if (e.has(openMessageButton))
      cards.push({ type: 'entities', entities: [confirmedButton(e.id(openMessageButton), t.openMessage, t.openAction, t.confirmOpen)] });
    // A saved attachment links to the board's own address (base) + its url; without a base it is named only.
    if (e.has(openedMessageEntity))
      cards.push(
        markdown(e, t, 'message-opened', {
          ...keyed(openedMessageEntity, 'sender', 'date', 'withdrawn', 'text', 'truncated', 'attachments'),
          base: { text: base },
        }),
      );
    return { type: 'vertical-stack', cards };
  };
}
