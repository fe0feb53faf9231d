// Announcements (SchoolNotices): string ids of the form LID-NBOARD-NOTICE-..., read flag per account.
import { z } from 'zod';
import { id, lenientList } from './common.js';

const notice = z.looseObject({
  Id: id,
  Subject: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  Content: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
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
