// Announcements (SchoolNotices): string ids of the form LID-NBOARD-NOTICE-..., read flag per account.
import * as z from 'zod';
import { id, lenientList } from './common.js';

/** A text the portal may leave null or out: empty then. */
const textOrEmpty = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

const notice = z.looseObject({
  Id: id,
  Subject: textOrEmpty,
  Content: textOrEmpty,
  StartDate: z.string().nullish(),
  EndDate: z.string().nullish(),
  CreationDate: z.string().nullish(),
  WasRead: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});

export const noticesResponse = z.looseObject({ SchoolNotices: lenientList(notice).default([]) });

export type Notice = z.output<typeof notice>;
