// The change feed's answers (live-notes 28-29), read leniently: ids as numbers or strings, extraData
// text or null, a resource's Type kept as the portal names it (live-notes 31), and the error fields
// (Status, Code) the change feed's answers carry beside or instead of their root key.
import * as z from 'zod';
import { normId } from './common.js';
import { num, text } from './fields.js';

/** An id the client can send back in a DELETE path: the portal's are numbers, as numbers or strings. */
/** A change's (and a device's) id as the client sends it back: no separator, no path. */
export const CHANGE_ID = /^[\w-]{1,40}$/;

/** How a record changed, by the lower-case Type the portal gives. */
const KINDS: Readonly<Record<string, 'Add' | 'Edit' | 'Delete'>> = { add: 'Add', edit: 'Edit', delete: 'Delete' };

/** The error fields of any of the change feed's answers. */
const errorFields = { Status: text, Code: text };

/** POST ChangeRegister: `{"ChangeRegister": {"Id", "Url"}}`, perhaps with `"Code": "DeviceRegistered"` (live-notes 28). */
export const changeRegisterAnswer = z.looseObject({
  ChangeRegister: z.unknown().optional().transform(normId),
  ...errorFields,
});

/**
 * One listed change. A kind the client does not know is taken for an edit (the record changed somehow,
 * so it is read again); a change without a usable id cannot be acknowledged and fails to parse.
 */
export const pushChange = z
  .looseObject({
    Id: z.unknown().transform(normId),
    Resource: z.unknown().optional(),
    Type: text,
    AddDate: text,
    extraData: text,
  })
  .refine((c) => c.Id !== undefined && CHANGE_ID.test(c.Id), 'no usable change id')
  .transform((c) => {
    const resource = c.Resource !== null && typeof c.Resource === 'object' ? (c.Resource as Record<string, unknown>) : {};
    return {
      /** The change's own id: what an acknowledgement deletes. */
      id: c.Id ?? '',
      kind: KINDS[(c.Type ?? '').trim().toLowerCase()] ?? 'Edit',
      /** The resource's name as the portal gives it (Grades, SchoolNotices, Calendars/Substitutions, ...); '' when it gives none. */
      type: typeof resource.Type === 'string' ? resource.Type.trim() : '',
      /** The changed record's id; '' when the portal gives none. */
      recordId: normId(resource.Id) ?? '',
      /** "YYYY-MM-DD HH:MM:SS" as the portal wrote it. */
      ...(c.AddDate === undefined ? {} : { addedAt: c.AddDate }),
      ...(c.extraData === undefined ? {} : { extraData: c.extraData }),
    };
  });

/** One change the change feed names. */
export type ChangeFeedChange = z.output<typeof pushChange>;

/** GET PushChanges: `{"Changes": [...], "ChangesTimestamp": <unix seconds>}`; the list is read item by item. */
export const pushChangesAnswer = z.looseObject({
  Changes: z.unknown().optional(),
  ChangesTimestamp: num,
  ...errorFields,
});
