// What an account's session needs to survive a restart: its cookie jar (DeviceCookie with its
// Path=/OAuth included) and the policy timestamps. One file per login in data_dir/sessions/.
import * as z from 'zod';
import { LoginFile } from '../util/stored.js';
import { LoginRecords } from './login-records.js';

/** The portal's advice to change the password, as a login keeps it (the `password_change_advised` entity mirrors it). */
export const PASSWORD_CHANGE_ADVISED = 'password_change_advised';

const persistedSchema = z.object({
  version: z.literal(1),
  // tough-cookie's serialized jar: its cookies are checked again when the jar is rebuilt.
  cookies: z.looseObject({ cookies: z.array(z.unknown()) }),
  loggedInAt: z.number().optional(),
  refreshedAt: z.number().optional(),
  refreshFailedAt: z.number().optional(),
  pause: z
    .object({
      reason: z.enum(['wrong_credentials', 'captcha_required', 'login_changed']),
      until: z.number(),
      credentials: z.string(),
      /** The portal's words on the refusal, shown by `problem` for the whole pause. */
      portal_message: z.string().optional(),
    })
    .optional(),
  /** The last login skipped the portal's advice to change the password (live-notes 19). */
  advice: z.literal(PASSWORD_CHANGE_ADVISED).optional(),
  /** When the log last said so (once a day). */
  adviceLoggedAt: z.number().optional(),
  /** A child on both roads whose session the family road opened: the register login waits until retryAt. */
  familyRoad: z.object({ retryAt: z.number() }).optional(),
});

export type PersistedSession = z.infer<typeof persistedSchema>;

export class SessionStore {
  private readonly file: LoginFile<typeof persistedSchema>;
  /** When `check` last logged this login in: a file of its own (checked/<login>.json), which a running bridge never writes. */
  private readonly checked: LoginRecords<number>;

  constructor(dataDir: string, login: string) {
    this.file = new LoginFile(dataDir, 'sessions', login, persistedSchema);
    this.checked = new LoginRecords(dataDir, login, { folder: 'checked', field: 'logins', record: z.number() });
  }

  /** `check` logged this login in at `at`: a login pause that began before then is over (session.ts). */
  noteCheckedLogin(at: number): Promise<void> {
    return this.checked.save({ check: at });
  }

  /** When `check` last logged this login in, if it ever did. */
  async checkedLoginAt(): Promise<number | undefined> {
    return (await this.checked.load().catch(() => undefined))?.check;
  }

  /** The saved session; a broken file is moved aside (told to onBroken) and the session starts anew. */
  load(onBroken?: (error: Error) => void): Promise<PersistedSession | undefined> {
    return this.file.load(onBroken);
  }

  /** Written (durably) only when the session changed: after most passes it has not. */
  save(state: PersistedSession): Promise<void> {
    return this.file.save(withoutMovingTimes(state));
  }
}

/**
 * The jar as the session's meaning, without what moves on every answer though nothing reads it:
 * tough-cookie's lastAccessed (the real time it last sent each cookie; expired cookies are sent anyway,
 * see HttpClient, and a restored cookie takes the time of its next request), and the Expires of a cookie
 * that has a Max-Age (Max-Age wins, by tough-cookie's expiryTime as by RFC 6265; the portal re-sends
 * oauth_token on every answer with an Expires ten minutes on). Either made every pass's jar differ from the
 * last, so the file was written after every pass.
 */
function withoutMovingTimes(state: PersistedSession): PersistedSession {
  const cookies = state.cookies.cookies.map((cookie) => {
    if (typeof cookie !== 'object' || cookie === null) return cookie;
    const { lastAccessed: _, ...kept } = cookie as Record<string, unknown>;
    if (kept.maxAge === undefined || kept.maxAge === null) return kept;
    const { expires: _overridden, ...rest } = kept;
    return rest;
  });
  return { ...state, cookies: { ...state.cookies, cookies } };
}
