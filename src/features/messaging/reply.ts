// A reply to a received message (POST /messages/reply, spec 4.8): addressed to the original's sender,
// refused when the original says noReply. The body is POST /messages' with originalMessageId.
import { sendBody, textToHtml } from './compose.js';
import { notSent } from './errors.js';
import type { Draft } from './guard.js';
import type { MessagesApi } from '../../portal/messaging-api.js';
import type { OpenedRecord } from './opened.js';

/** The topic of a reply: the original's, marked as an answer once. */
function replyTopic(original: string | null): string {
  const topic = (original ?? '').trim();
  if (topic === '') return 'Odpowiedź';
  return /^re:/i.test(topic) ? topic : `Re: ${topic}`;
}

/** The draft of a reply to `original` with `text`; refused before anything goes out when it cannot be answered. */
export function replyDraft(api: MessagesApi, original: OpenedRecord, text: string): Draft {
  if (!original.can_reply || original.sender_id === null)
    throw notSent('no_reply', 'this message cannot be replied to (the portal marks it noReply)');
  const topic = replyTopic(original.topic);
  const body = { ...sendBody(original.sender_id, { topic, html: textToHtml(text) }), originalMessageId: Number(original.message_id) };
  return {
    recipient: { accountId: original.sender_id, label: original.sender ?? original.sender_id },
    topic,
    text,
    post: () => api.postReply(body),
  };
}
