// The smaller modules of spec 2.9 that no entity reads yet, kept loose so that `check` and future
// features can read them: special achievement types, server time, module access, push settings,
// upload limits, regulations and help.
import { z } from 'zod';
import { text, bool, objectList } from './fields.js';

const moduleAccess = z.looseObject({ module: text, access: bool });
/** AdditionalModulesAccess: {Data: [{module, access}]}; a single object is read as a list of one. */
export const additionalModulesAccessResponse = z.looseObject({
  Data: z.unknown().optional().transform((v) => objectList(moduleAccess).parse(Array.isArray(v) ? v : v == null ? [] : [v])),
});

