// Issue 36 item 9, the messages' part, through the real bridge against the simulator: a message its
// sender withdrew (the portal says so only in the opened message's answer) is shown as withdrawn in
// opened_message, the dashboard's Messages card (pl/en/uk) and the family board; and where the school
// allows the account no attachments (/api/me accessToAttachments false) none is tried.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dashboard } from '../../src/outputs/homeassistant/dashboard.js';
import { LANGUAGES } from '../../src/config/language.js';
import { ENTITIES } from '../../src/features/index.js';
import { openedMessageEntity } from '../../src/features/opened-message/opened-message.js';
import { entityId } from '../../src/features/kit/entities.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { loadOrCreateToken } from '../../src/outputs/web/token.js';
import { renderTemplates, skipWithoutJinja } from '../helpers/blueprints.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const NOW = '2026-11-23T09:40:00+01:00';
const school = simulatedSchool(NOW);

/** Janek's fixture message that its sender withdrew (fixtures/simulator/messages.json). */
const WITHDRAWN = { id: '8811171', topic: 'Próba występu przesunięta' };
const WITHDRAWN_LINE = {
  pl: 'Nadawca wycofał tę wiadomość.',
  en: 'The sender withdrew this message.',
  uk: 'Відправник відкликав це повідомлення.',
} as const;

describe('a withdrawn message', () => {
  it.skipIf(skipWithoutJinja())(
    'is shown as withdrawn in opened_message, the dashboard in every language and the board',
    async () => {
      const port = await freePort();
      const h = await school.start({ accounts: [{ login: JANEK.login, password: JANEK.password }], http: { port } });
      await h.runUntil(() => h.state('jan', 'opened_message') !== undefined, 'the first passes');

      const result = await command(h, 'jan', 'open_message', WITHDRAWN.id, school.clock);
      expect(result).toMatchObject({ status: 'ok', message_id: WITHDRAWN.id, withdrawn: true });
      await h.runUntil(() => h.state('jan', 'opened_message') === WITHDRAWN.topic, 'the opened message');
      expect(h.attributes('jan', 'opened_message')).toMatchObject({ message_id: WITHDRAWN.id, withdrawn: true });

      // The dashboard's Messages card, rendered as Home Assistant renders it from what the bridge published.
      const states = { [entityId('jan', openedMessageEntity)]: { state: WITHDRAWN.topic, attributes: h.attributes('jan', 'opened_message') ?? {} } };
      for (const lang of LANGUAGES) {
        const opened = openedTemplate(dashboard([{ id: 'jan', name: 'Jan', entities: ENTITIES }], lang));
        const [shown] = await renderTemplates([{ template: opened, variables: {}, states, strict: true, now: NOW }]);
        expect(shown, lang).toHaveProperty('value');
        expect(String((shown as { value: string }).value), lang).toContain(WITHDRAWN_LINE[lang]);
      }

      // The family board's model, as the page gets it.
      const token = (await loadOrCreateToken(h.dataDir)).value;
      const { model } = JSON.parse((await send(port, `/api/board?token=${token}`)).body) as {
        model: {
          labels: { withdrawn?: string };
          children: { id: string; messages: { opened: { topic: string; withdrawn?: boolean } | null } | null }[];
        };
      };
      expect(model.children.find((c) => c.id === 'jan')?.messages?.opened).toMatchObject({ topic: WITHDRAWN.topic, withdrawn: true });
      expect(model.labels.withdrawn).toBe('wycofana przez nadawcę');
    },
    60_000,
  );
});

describe('attachments the school does not allow', () => {
  it('are not tried: open_message says why, nothing is downloaded and the attachment keeps its name', async () => {
    const attachment = { id: '990077', filename: 'regulamin wycieczki.pdf' };
    const message = school.sim.messaging.addMessage(ANIA.login, {
      topic: 'Regulamin wycieczki',
      body: 'W załączniku regulamin.',
      from: 162001,
      attachments: [attachment],
    });
    school.sim.messaging.allowAttachments(ANIA.login, false);
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, downloads: true }] });
    await h.runUntil(() => h.state('ania', 'unread_messages') !== undefined && h.state('ania', 'opened_message') !== undefined, 'the first passes');

    const result = await command(h, 'ania', 'open_message', String(message.id), school.clock);
    expect(result).toEqual({
      status: 'ok',
      message_id: String(message.id),
      mailbox: 'inbox',
      attachments: 1,
      attachments_not_saved: 'the school does not allow attachments for this account',
    });
    await h.runUntil(() => h.state('ania', 'opened_message') === 'Regulamin wycieczki', 'the opened message');
    expect(h.attributes('ania', 'opened_message')?.attachments).toEqual([{ name: attachment.filename }]);
    expect(school.sim.count({ host: 'messages', path: `/api/attachments/${attachment.id}/messages/${message.id}` })).toBe(0);
    expect(school.sim.downloads.served.filter((d) => d.kind === 'attachment')).toHaveLength(0);
    expect(existsSync(join(h.dataDir, 'downloads', 'ania', 'messages', String(message.id)))).toBe(false);
  }, 60_000);
});

/** The Messages card's template that shows the opened message. */
function openedTemplate(node: unknown): string {
  const found: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      const card = n as Record<string, unknown>;
      if (card.type === 'markdown' && typeof card.content === 'string' && card.content.includes(entityId('jan', openedMessageEntity)))
        found.push(card.content);
      Object.values(card).forEach(walk);
    }
  };
  walk(node);
  expect(found).toHaveLength(1);
  return found[0]!;
}
