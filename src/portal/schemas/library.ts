// School library lendings (spec 2.9): a flat object, lendings identified by UUID.
import * as z from 'zod';
import { text, bool, objectList } from './fields.js';

const lending = z.looseObject({
  identifier: text,
  type: text,
  title: text,
  author: text,
  lendedAt: text,
  /** Not a real return date for free textbooks. */
  dueDate: text,
  isExtendable: bool,
});

export const ebiblioLendingsResponse = z.looseObject({
  lendings: objectList(lending),
});

export type Lending = z.output<typeof lending>;
