// The smaller modules of spec 2.9 that no entity reads yet, kept loose so that `check` and future
// features can read them: special achievement types, server time, module access, push settings,
// upload limits, regulations and help.
import { z } from 'zod';
import { lenientList } from './common.js';
import { text, bool, refId, objectList } from './fields.js';

export const specialAchievementTypesResponse = z.looseObject({
  data: lenientList(z.looseObject({ id: refId, name: text })),
});

export const systemDataResponse = z.looseObject({ Date: text, Time: text });

const moduleAccess = z.looseObject({ module: text, access: bool });
/** AdditionalModulesAccess: {Data: [{module, access}]}; a single object is read as a list of one. */
export const additionalModulesAccessResponse = z.looseObject({
  Data: z.unknown().optional().transform((v) => objectList(moduleAccess).parse(Array.isArray(v) ? v : v == null ? [] : [v])),
});

export const pushConfigurationsResponse = z.looseObject({ version: z.unknown().optional(), settings: z.unknown().optional() });

export const fileTransferRestrictionsResponse = z.looseObject({
  Restrictions: z.looseObject({ upload: z.unknown().optional(), upload_3g: z.unknown().optional() }),
});

export const regulationsResponse = z.looseObject({
  Data: objectList(z.looseObject({ module: text, acceptanceDate: text, url: text })),
});

export const helpResponse = z.looseObject({ Help: objectList(z.looseObject({ Id: refId, Description: text })) });
