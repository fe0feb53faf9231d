// A child reachable on both roads (issue 39, item 4): its register login entry and an `email` entry
// that lists it. The register road is used; when its login fails for any reason but a wrong password,
// the child is read through the family road, and the register login is tried again hourly until it
// works, then the register road again. The child keeps one web session (one file, named by its login)
// and one gateway: only the road under them changes, so nothing is published or fired twice.
import { WrongCredentialsError, problemReason } from './errors.js';
import { registerRoad, type DataRoad } from './gateway.js';
import { passwordLogin, type LoginOutcome } from './login.js';
import type { FamilyAccount } from './family.js';
import type { HttpClient } from './http.js';
import type { PortalSession, PortalSessionOptions, RoadHold } from './session.js';
import type { PersistedSession } from './session-store.js';
import { errorText } from '../util/text.js';

export type RoadName = 'register' | 'family';

/** How long the family road reads the child before the register login is tried again. */
export const REGISTER_RETRY_MS = 60 * 60_000;

/** The register session's own (`account`: the label logs and errors name the child by), and the family account behind it. */
export interface TwoRoadsOptions extends Pick<PortalSessionOptions, 'login' | 'password' | 'urls' | 'account' | 'clock' | 'log'> {
  familyRoad: FamilyAccount;
}

export class TwoRoads implements RoadHold {
  private current: RoadName = 'register';
  /** While on the family road: when the register login is tried again. */
  private retryAt = 0;
  private retrying: Promise<void> | undefined;

  constructor(private readonly options: TwoRoadsOptions) {}

  /** The road the child is read through now. */
  get road(): RoadName {
    return this.current;
  }

  /** Kept with the web session while the family road holds, so that a restart stays on it. */
  held(): PersistedSession['familyRoad'] {
    return this.current === 'family' ? { retryAt: this.retryAt } : undefined;
  }

  /** The road a saved session was opened on; its hour never longer than one from now. */
  resume(saved: PersistedSession['familyRoad']): void {
    if (saved === undefined) return;
    this.current = 'family';
    this.retryAt = Math.min(saved.retryAt, this.options.clock.now() + REGISTER_RETRY_MS);
  }

  /**
   * The web session's sign-in: the register login, unless the family road holds until its hour ends;
   * a register login that fails but for a wrong password opens the session through the family road.
   */
  readonly signIn = async (http: HttpClient): Promise<LoginOutcome> => {
    const { familyRoad, login, password, urls, account, clock, log } = this.options;
    const now = clock.now();
    if (this.current === 'family' && now < this.retryAt) return familyRoad.webSignIn(login)(http);
    try {
      const outcome = await passwordLogin({ http, urls, account, login, password, now: () => clock.now() });
      if (this.current === 'family') log.info('the register login works again; this child is read on the register road');
      this.current = 'register';
      return outcome;
    } catch (error) {
      if (error instanceof WrongCredentialsError) {
        // A wrong password is the family's to fix: the family road never stands in for it.
        this.current = 'register';
        throw error;
      }
      if (this.current === 'register') {
        log.warn(
          { reason: problemReason(error), err: errorText(error) },
          'the register login failed; this child is read on the family road, and the register login is tried again in an hour',
        );
      }
      this.current = 'family';
      this.retryAt = now + REGISTER_RETRY_MS;
      return familyRoad.webSignIn(login)(http);
    }
  };

  /**
   * The data road under the gateway: the register gateway, or the family account's API host while the
   * family road holds. Addresses are the register road's; a request on the family road is re-addressed.
   * The services beside the API (a kindergarten's plan) are those of the road that holds when they are
   * asked: without them a child named by both a login entry and a family e-mail entry had no kindergarten plan at all.
   */
  dataRoad(session: PortalSession): DataRoad {
    const register = registerRoad(session, this.options.urls);
    const familyData = this.options.familyRoad.dataRoad(this.options.login, session.http, this.options.log);
    const prefix = register.url('');
    const viaFamily: DataRoad['send'] = (request) => familyData.send({ ...request, url: familyData.url(request.url.slice(prefix.length)) });
    const current = () => this.current;
    return {
      url: (endpoint) => register.url(endpoint),
      get services() {
        return current() === 'family' ? familyData.services : register.services;
      },
      send: async (request) => {
        await this.retryRegister(session);
        if (this.current === 'family') return viaFamily(request);
        try {
          return await register.send(request);
        } catch (error) {
          // The session died and its new login went the family road: this request goes there too.
          if (this.road === 'family') return viaFamily(request);
          throw error;
        }
      },
    };
  }

  /** Once the family road's hour is over, one login tries the register road again (shared by every request). */
  private async retryRegister(session: PortalSession): Promise<void> {
    if (this.current !== 'family' || this.options.clock.now() < this.retryAt) return;
    this.retrying ??= session
      .forceLogin()
      .catch(() => {
        // A wrong password: the session the family road opened is not read on; the login's pause shows.
        if (this.road === 'register') session.forget();
        // Neither road could sign in (a pause now holds both): the next try is in an hour too.
        else this.retryAt = this.options.clock.now() + REGISTER_RETRY_MS;
      })
      .finally(() => (this.retrying = undefined));
    await this.retrying;
  }
}
