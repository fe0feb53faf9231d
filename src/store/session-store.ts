// What an account's session needs to survive a restart: its cookie jar (DeviceCookie with its
// Path=/OAuth included) and the policy timestamps. One file per login in data_dir/sessions/.
import { join } from 'node:path';
import { z } from 'zod';
import { readJson, safeName, writeJson } from './files.js';

const persistedSchema = z.object({
  version: z.literal(1),
  cookies: z.unknown(),
  loggedInAt: z.number().optional(),
  refreshedAt: z.number().optional(),
  refreshFailedAt: z.number().optional(),
  pause: z
    .object({
      reason: z.enum(['wrong_credentials', 'captcha_required']),
      until: z.number(),
      credentials: z.string(),
      /** The portal's words on the refusal, shown by `problem` for the whole pause. */
      portal_message: z.string().optional(),
    })
    .optional(),
});

export type PersistedSession = z.infer<typeof persistedSchema>;

export class SessionStore {
  private readonly path: string;

  constructor(dataDir: string, login: string) {
    this.path = join(dataDir, 'sessions', `${safeName(login)}.json`);
  }

  async load(onCorrupt?: (error: Error) => void): Promise<PersistedSession | undefined> {
    const raw = await readJson(this.path, onCorrupt);
    const parsed = persistedSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  save(state: PersistedSession): Promise<void> {
    return writeJson(this.path, state);
  }
}
