// The Messages card of a child's view: the newest inbox message (marked while unread), the button that
// opens it (after a confirmation: the portal then marks it read), and the opened message whole, its
// attachments as links to the bridge's web server. Every attribute is read through its declaration.
import { item, prelude } from './dashboard-templates.js';
import { confirmedButton } from './dashboard-details.js';
import type { Block, Card, ChildEntities } from './dashboard-cards.js';
import type { DashboardText } from '../i18n/dashboard-text.js';
import type { AttributeName, ItemOf } from '../feature-kit/contract.js';
import { newestMessage, unreadMessages } from '../features/messages.js';
import { openedMessageEntity, openMessageButton } from '../features/opened-message.js';

type Attachment = ItemOf<typeof openedMessageEntity, 'attachments'>;

/** The newest inbox message: topic, sender, day and the start of its text, "unread" while it is. */
function newest(e: ChildEntities, t: DashboardText): string[] {
  const id = e.id(newestMessage);
  const a = (name: AttributeName<typeof newestMessage>): string => e.attr(newestMessage, name);
  const count = e.has(unreadMessages) ? `{% set n = states('${e.id(unreadMessages)}') | int(0) %}{% if n > 0 %} · ✉️ **{{ n }}**{% endif %}` : '';
  return [
    `{% if has_value('${id}') %}`,
    `#### ${t.newestMessage}${count}`,
    `**{{ md(states('${id}')) }}**{% if ${a('sender')} %}, {{ md(${a('sender')}) }}{% endif %}{% if ${a('date')} %} <small>{{ day(${a('date')}) }}</small>{% endif %}` +
      `{% if ${a('read')} == false %} · _${t.unread}_{% endif %}`,
    `{% if ${a('preview')} %}\n{{ md(${a('preview')} | truncate(160)) }}{% endif %}`,
    `{% endif %}`,
  ];
}

/**
 * The opened message: topic, sender, day, its text (HTML-escaped; each line break kept, as Home
 * Assistant's Markdown breaks lines) and its attachments. A saved attachment links to `base` + its
 * `url` (the board's own address: the web server serves /files/ to a browser with the board's
 * cookie); without a base, or one that was not saved, it is named only.
 */
function opened(e: ChildEntities, t: DashboardText, base: string | undefined): string[] {
  const id = e.id(openedMessageEntity);
  const a = (name: AttributeName<typeof openedMessageEntity>): string => e.attr(openedMessageEntity, name);
  const x = item<Attachment>('x');
  // A file name may hold parentheses, which would end a Markdown link's address.
  const href = `(${JSON.stringify(base ?? '')} ~ ${x('url')}) | replace('(', '%28') | replace(')', '%29')`;
  const link = base === undefined ? `{{ md(${x('name')}) }}` : `{% if ${x('url')} %}[{{ md(${x('name')}) }}]({{ ${href} }}){% else %}{{ md(${x('name')}) }}{% endif %}`;
  return [
    `#### ${t.openedMessage}`,
    `{% if has_value('${id}') %}`,
    `**{{ md(states('${id}')) }}**{% if ${a('sender')} %}, {{ md(${a('sender')}) }}{% endif %}{% if ${a('date')} %} <small>{{ day(${a('date')}) }}</small>{% endif %}`,
    '',
    `{{ md(${a('text')}) }}`,
    `{% if ${a('truncated')} %}\n_${t.truncated}_{% endif %}`,
    `{%- for x in ${a('attachments')} or [] %}`,
    `{% if loop.first %}\n**${t.attachments}:**\n{% endif %}- 📎 ${link}`,
    `{%- endfor %}`,
    `{% else %}${t.noOpenedMessage}{% endif %}`,
  ];
}

/**
 * The Messages card: the newest message, the open button and the opened message, one below the
 * other; nothing for a child without the messages feature.
 */
export function messagesCard(base: string | undefined): Block {
  return (e, t) => {
    if (!e.has(newestMessage)) return undefined;
    const markdown = (lines: string[]): Card => ({ type: 'markdown', content: [prelude(t), ...lines].join('\n') });
    const cards: Card[] = [markdown(newest(e, t))];
    if (e.has(openMessageButton)) cards.push({ type: 'entities', entities: [confirmedButton(e.id(openMessageButton), t.openMessage, t.openAction, t.confirmOpen)] });
    if (e.has(openedMessageEntity)) cards.push(markdown(opened(e, t, base)));
    return { type: 'vertical-stack', cards };
  };
}
