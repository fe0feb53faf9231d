// Who an account's child is: its identity (read as the resource IDENTITY declares, kept in data_dir), the
// child id its topics use, and the device Home Assistant shows for it.
import { safeName } from '../util/files.js';
import { classModel, FALLBACK_LANGUAGE, KINDERGARTEN_MODEL, type Language } from '../config/language.js';
import { childSlug, loadIdentity, saveIdentity, type Identity } from '../engine/identity.js';
import type { ChildDevice } from '../features/kit/entities.js';
import type { EntityDef } from '../features/kit/entities.js';
import type { AccountConfig } from '../config/schema.js';
import type { Logger } from '../util/log.js';
import { errorText, oneLine } from '../util/text.js';

export interface AccountChildOptions {
  account: AccountConfig;
  dataDir: string;
  log: Logger;
  language?: Language;
  /** The child's name as the family portal listed it (the family road): the device's name until the child is read. */
  listedName?: () => string | undefined;
}

export class AccountChild {
  identity: Identity | undefined;
  /** The configured id, else the first name's slug once known, else the login. */
  id: string;

  constructor(private readonly options: AccountChildOptions) {
    this.id = options.account.id ?? safeName(options.account.login).toLowerCase();
  }

  /**
   * The first name the family calls the child by, as the board says it (the first word of the name the portal
   * gives, or lists on the family road); the id until a name is known.
   */
  get firstName(): string {
    const name = this.identity?.firstName || this.options.listedName?.() || '';
    return oneLine(name).trim().split(/\s+/)[0] || this.id;
  }

  /** The identity the last run saved; returns when it was fetched. */
  async restore(): Promise<number | undefined> {
    const cached = await loadIdentity(this.options.dataDir, this.options.account.login, (error) =>
      this.options.log.warn({ err: error.message }, 'saved child identity unreadable; read from the portal again'),
    );
    if (!cached) return undefined;
    this.adopt(cached);
    return cached.fetchedAt;
  }

  /** The identity as read now: adopted and saved; a failed save goes to onStorageError, not to the caller. */
  async learned(identity: Identity, onStorageError: (error: unknown) => void): Promise<void> {
    this.adopt(identity);
    await saveIdentity(this.options.dataDir, this.options.account.login, identity).catch((error: unknown) => {
      onStorageError(error);
      this.options.log.error({ err: errorText(error) }, 'cannot write the child identity in data_dir');
    });
  }

  /** The device as announced with the given entities; a kindergarten child's model line says so (it has no class). */
  device(entities: EntityDef[], kindergarten = false): ChildDevice {
    const id = this.identity;
    const language = this.options.language ?? FALLBACK_LANGUAGE;
    return {
      id: this.id,
      // Never the register login when a name is known: a parent reads the device's name from its first discovery.
      name: id ? `${id.firstName} ${id.lastName}`.trim() : (this.options.listedName?.() ?? this.options.account.login),
      model: kindergarten ? KINDERGARTEN_MODEL[language] : id?.className ? classModel(id.className, language) : undefined,
      school: id?.schoolName,
      entities,
    };
  }

  private adopt(identity: Identity): void {
    this.identity = identity;
    if (this.options.account.id !== undefined || !identity.firstName || childSlug(identity.firstName) === this.id) return;
    this.id = childSlug(identity.firstName);
    // The account's every part logs on this logger: from now on its lines name the child by its id, the login beside it.
    this.options.log.setBindings({ account: this.id, login: this.options.account.login });
  }
}
