// The message-write feature's own read: whom a written message may go to (the portal's receivers, named
// through the lookups), read only with write_messages.
import { messagingResource } from '../../engine/resource.js';
import { byDay, DAY } from '../../engine/resources/ages.js';
import { userOf } from '../../engine/resources/lookups.js';
import { writeTargets } from '../messaging/write-targets.js';

/** Whom a written message may go to (write_messages only): once a day, an empty list too. */
export const RECIPIENTS = messagingResource({
  name: 'messaging receivers (the recipient list)',
  endpoints: ['/api/receivers/groups/school-employees', '/api/receivers/student-subjects'],
  read: (api, _key, { copies, identity }) => {
    const child = identity();
    if (child === undefined) return Promise.resolve([]);
    return writeTargets({ api, user: (id) => Promise.resolve(userOf(copies, id)), identity: child });
  },
  fresh: byDay(DAY),
  // The class tutor among them is of today's class (the identity is read first in the same pass).
  daily: '06:00',
  whenAsked: 'keep',
  keepOnError: true,
  note: "with write_messages only, at each day's first pass from 06:00; an empty list waits its day too",
});
