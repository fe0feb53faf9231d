// The portal resources only the messages feature reads beside the counters and the mailboxes' lists
// (src/engine/resources/messaging.ts): the archive of past school years (spec 4.8; live-notes 40: a past year's
// messages move there), read only when a person asks Assist for it (engine/on-demand.ts), never by a pass.
import { always } from '../../engine/schedule.js';
import { messagingResource } from '../../engine/resource.js';
import { DAY } from '../../engine/resources/ages.js';

/** What an archive holds changes only at a year's end: a copy answers a question again for a day; a refresh keeps it. */
const ARCHIVE_AGE = always(DAY);

export const ARCHIVED_INBOX = messagingResource({
  endpoints: ['/api/archive/inbox/messages'],
  read: (api) => api.archivedList(),
  fresh: ARCHIVE_AGE,
  whenAsked: 'keep',
  absentForMs: DAY,
  note: "past school years' messages, only when a person asks Assist for them",
});

export const ARCHIVED_SENT = messagingResource({
  endpoints: ['/api/archive/outbox/messages'],
  read: (api) => api.archivedSentList(),
  fresh: ARCHIVE_AGE,
  whenAsked: 'keep',
  absentForMs: DAY,
  note: "past school years' sent messages, only when a person asks Assist for them",
});
