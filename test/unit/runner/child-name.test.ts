// The name every event gives its child (`child_name`, interface 17.2): the first name as the board says it, from
// the identity the portal gives, else the name the family portal listed, else the child's id.
import { describe, expect, it } from 'vitest';
import { AccountChild } from '../../../src/runner/child.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';

const T0 = Date.parse('2026-11-18T08:00:00+01:00');

async function child(listed?: string, id?: string): Promise<AccountChild> {
  return new AccountChild({
    account: { login: '5432167u', id, downloads: false, messages: [], write_messages: false },
    dataDir: await tempDir(),
    log: silentLogger(),
    listedName: () => listed,
  });
}

describe("the child's first name, as its events give it", () => {
  it('is the first word of the first name the portal gives, and keeps the configured id', async () => {
    const c = await child(undefined, 'zosia');
    await c.learned({ firstName: 'Zofia Maria', lastName: 'Kowalska', userId: '1', fetchedAt: T0 }, () => {});
    expect([c.id, c.firstName]).toEqual(['zosia', 'Zofia']);
  });

  it("before the identity: the family portal's listed name, else the id", async () => {
    expect((await child('Staś Kowalski')).firstName).toBe('Staś');
    expect((await child(undefined, 'antek')).firstName).toBe('antek');
  });
});
