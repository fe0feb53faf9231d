// The sending keys (interface 7.1): messages_per_day at the top level (10 unless set) and
// write_messages per account (off unless set); a wrong value is refused with its key named; the
// add-on's options carry both.
import { describe, expect, it } from 'vitest';
import { buildMinimal as build, refusal } from '../../helpers/config.js';
import { configFromOptions } from '../../../src/config/addon.js';

describe('config messages_per_day and write_messages', () => {
  it('defaults to 10 a day and no free writing', async () => {
    const config = await build({});
    expect(config.messages_per_day).toBe(10);
    expect(config.accounts[0]?.write_messages).toBe(false);
  });

  it('takes 0 to 100 a day and write_messages true', async () => {
    expect((await build({ messages_per_day: 0 })).messages_per_day).toBe(0);
    expect((await build({ messages_per_day: 100 })).messages_per_day).toBe(100);
  });

  it.each([
    ['over 100', 101, /at most 100/],
    ['negative', -1, /at least 0/],
    ['fractional', 2.5, /whole number/],
    ['text', 'ten', /whole number/],
  ])('refuses messages_per_day %s, naming the key', async (_what, value, reason) => {
    const message = await refusal({ messages_per_day: value });
    expect(message).toContain('messages_per_day');
    expect(message).toMatch(reason);
  });

  it("refuses write_messages that is not true or false, naming the account's key", async () => {
    const message = await refusal({ accounts: [{ login: '1234567u', password: 'x', write_messages: 'yes' }] });
    expect(message).toContain('accounts[0].write_messages');
    expect(message).toMatch(/true or false/);
  });

  it("the add-on's options carry both", () => {
    const raw = configFromOptions(
      { accounts: [{ login: '1234567u', password: 'x', write_messages: true }], messages_per_day: 4 },
      { url: 'mqtt://core-mosquitto:1883', username: '', password: '' },
    );
    expect(raw.messages_per_day).toBe(4);
    expect(raw.accounts[0]).toMatchObject({ write_messages: true });
    expect(configFromOptions({ accounts: [{ login: '1234567u', password: 'x' }] }).accounts[0]).toMatchObject({ write_messages: false });
  });
});
