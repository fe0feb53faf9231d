// Which children the bridge reads, and on which road: each `login` entry's child (with the family road
// behind it when an `email` entry lists the child too), then the children only an `email` entry brings.
import { familyChildren, loginKey, type FamilyChild, type FamilyChildrenOptions, type UnlistedFamily } from '../family/children.js';
import type { Config } from '../config/schema.js';

/** A child the bridge reads, with its road. */
export type ReadChild = Pick<FamilyChild, 'account'> & { family?: FamilyChild['family']; alsoFamily?: FamilyChild['family'] };

/** The children of the config, and the `email` entries whose children could not be listed yet. */
export async function readChildren(
  config: Config,
  options: Omit<FamilyChildrenOptions, 'dataDir' | 'urls' | 'registerLogins'>,
): Promise<{ children: ReadChild[]; unlisted: UnlistedFamily[] }> {
  const { children: family, unlisted } = await familyChildren(config.families, {
    ...options,
    dataDir: config.data_dir,
    urls: config.portal,
    registerLogins: new Set(config.accounts.map((a) => loginKey(a.login))),
  });
  const behind = new Map(family.filter((c) => c.alsoRegister).map((c) => [loginKey(c.account.login), c.family]));
  const children: ReadChild[] = [
    ...config.accounts.map((account) => ({ account, alsoFamily: behind.get(loginKey(account.login)) })),
    ...family.filter((c) => !c.alsoRegister),
  ];
  return { children, unlisted };
}
