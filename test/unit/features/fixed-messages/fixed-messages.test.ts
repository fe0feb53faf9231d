// The fixed-messages feature: one send_<id> button per message the account configures, all sending
// through send_message; without a configured message the command is refused.
import { describe, expect, it } from 'vitest';
import { fixedMessages } from '../../../../src/features/fixed-messages/fixed-messages.js';
import { CommandError } from '../../../../src/features/kit/commands.js';
import { buildMinimal } from '../../../helpers/config.js';
import { entityTable } from '../../../helpers/entities.js';

describe('fixed-messages feature', () => {
  it('announces one button per configured message, named as the user named it in every language', async () => {
    const message = (id: string, name: string) => ({ id, name, to: 'class_tutor', topic: 'Nieobecność', body: 'Dziecko jest chore.' });
    const config = await buildMinimal({
      accounts: [{ login: '1234567u', password: 'x', messages: [message('sick', 'Chore dziecko'), message('late', 'Spóźnienie')] }],
    });
    const buttons = fixedMessages.configured?.(config.accounts[0]!) ?? [];
    expect(entityTable(fixedMessages.entities)).toEqual([]);
    expect(entityTable(buttons)).toEqual([
      ['send_sick', 'button', false],
      ['send_late', 'button', false],
    ]);
    expect(buttons[0]).toMatchObject({ name: { en: 'Chore dziecko', pl: 'Chore dziecko' }, command: { key: 'send_message', payload: 'sick' } });
  });

  it('refuses send_message when the account configures no message', async () => {
    const send = fixedMessages.commands?.send_message;
    const request = { child: 'ania', command: 'send_message', payload: Buffer.from('sick'), text: 'sick', arg: 'sick' };
    // The handler refuses before it touches the account, so none is needed.
    await expect(send?.(request, undefined as never, { sender: undefined } as never)).rejects.toBeInstanceOf(CommandError);
  });
});
