// The child's Messages card as a parent sees it: its templates rendered by Jinja2 as Home Assistant
// renders them (test/helpers/ha-templates.py), against the states the features publish: the newest
// message marked while unread, the open button behind a confirmation, the opened message's text with
// its line breaks and its attachments as links under the board's address.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The Messages section's cards of Ania's view. */
function messagesCard(lang: 'pl' | 'en', boardUrl?: string): Node {
  const doc = parse(dashboardYaml([ania], lang, boardUrl === undefined ? {} : { boardUrl }), { version: '1.1' }) as {
    views: { path: string; sections: { cards: Node[] }[] }[];
  };
  const view = doc.views.find((v) => v.path === 'ania')!;
  const heading = lang === 'pl' ? 'Wiadomości' : 'Messages';
  const section = view.sections.find((s) => s.cards[0]?.heading === heading)!;
  return section.cards.find((c) => c.type === 'vertical-stack')!;
}

type States = Record<string, { state: string; attributes: Record<string, unknown> }>;

const NEWEST: States = {
  'sensor.ania_unread_messages': { state: '2', attributes: { inbox: 2 } },
  'sensor.ania_newest_message': {
    state: 'Wycieczka do Krakowa',
    attributes: {
      id: '501',
      sender: 'Anna Nowak',
      date: '2026-11-20 14:05',
      read: false,
      has_attachments: true,
      preview: 'Szanowni Państwo, w piątek jedziemy…',
    },
  },
};

const OPENED: States = {
  'sensor.ania_opened_message': {
    state: 'Wycieczka do Krakowa',
    attributes: {
      message_id: '501',
      mailbox: 'inbox',
      sender: 'Anna Nowak',
      date: '2026-11-20 14:05',
      text: 'Szanowni Państwo,\nw piątek jedziemy do Krakowa.\n\nProszę o zgodę <do 25.11>.',
      truncated: true,
      attachments: [
        {
          name: 'zgoda (wzór).pdf',
          size: 1200,
          path: '/data/downloads/ania/messages/501/zgoda (wzór).pdf',
          url: '/files/ania/501/zgoda%20(wz%C3%B3r).pdf',
        },
        { name: 'plan.docx' },
      ],
      can_reply: true,
    },
  },
};

async function render(card: Node, index: number, states: States): Promise<string> {
  const content = ((card.cards as Node[])[index] as Node).content as string;
  const [result] = await renderTemplates([{ template: content, variables: {}, states, strict: true }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return result.value as string;
}

describe('the Messages card of a child', () => {
  it('stacks the newest message, the open button and the opened message, reading the declared entities', () => {
    const card = messagesCard('en', 'http://192.168.1.5:8099/');
    expect((card.cards as Node[]).map((c) => c.type)).toEqual(['markdown', 'entities', 'markdown']);
    const text = JSON.stringify(card);
    expect(text).toContain('set newest_message = \\"sensor.ania_newest_message\\"');
    expect(text).toContain('set opened_message = \\"sensor.ania_opened_message\\"');
    expect(text).toContain('set base = \\"http://192.168.1.5:8099\\"');
    for (const attr of ['sender', 'date', 'read', 'preview']) expect(text).toContain(`state_attr(newest_message, '${attr}')`);
    for (const attr of ['sender', 'date', 'text', 'truncated', 'attachments']) expect(text).toContain(`state_attr(opened_message, '${attr}')`);
  });

  it('presses open_message only after a yes that says the register marks the message read', () => {
    const rows = (messagesCard('pl').cards as Node[])[1]!.entities as Node[];
    expect(rows).toEqual([
      {
        type: 'button',
        entity: 'button.ania_open_message',
        name: 'Otwórz najnowszą wiadomość',
        action_name: 'Otwórz',
        tap_action: { action: 'toggle', confirmation: { text: 'Otworzyć najnowszą wiadomość? Dziennik oznaczy ją jako przeczytaną.' } },
      },
    ]);
  });

  it('leaves out a child without the messages feature', () => {
    const yaml = dashboardYaml([{ id: 'jan', name: 'Jan', entities: ENTITIES.filter((e) => !/message/.test(e.key)) }], 'en');
    // The Messages card is the child's view's one vertical stack (the bridge view stacks its tiles too).
    const doc = parse(yaml, { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
    const view = doc.views.find((v) => v.path === 'jan')!;
    expect(view.sections.flatMap((s) => s.cards).filter((c) => c.type === 'vertical-stack')).toEqual([]);
    expect(yaml).not.toContain('open_message');
  });
});

describe.skipIf(skipWithoutJinja())('the Messages card rendered (python3-jinja2)', () => {
  it('shows the newest message with its sender, day, preview, the unread count and "unread"', async () => {
    const shown = await render(messagesCard('pl'), 0, NEWEST);
    expect(shown).toContain('#### Najnowsza wiadomość · ✉️ **2**');
    expect(shown).toContain('**Wycieczka do Krakowa**, Anna Nowak <small>pt. 20.11</small> · _nieprzeczytana_');
    expect(shown).toContain('Szanowni Państwo, w piątek jedziemy…');
    const read = await render(messagesCard('pl'), 0, {
      'sensor.ania_unread_messages': { state: '0', attributes: {} },
      'sensor.ania_newest_message': {
        ...NEWEST['sensor.ania_newest_message']!,
        attributes: { ...NEWEST['sensor.ania_newest_message']!.attributes, read: true },
      },
    });
    expect(read).not.toContain('nieprzeczytana');
    expect(read).not.toContain('✉️');
  });

  it("shows the opened message's text with its line breaks, escaped for Markdown, and its attachments as links under the board's address", async () => {
    const shown = await render(messagesCard('en', 'http://192.168.1.5:8099/'), 2, OPENED);
    expect(shown).toContain('#### Opened message');
    expect(shown).toContain('**Wycieczka do Krakowa**, Anna Nowak <small>Fri 20 Nov</small>');
    // Escaped for Markdown (md()): the text shows as written, its <...> too.
    expect(shown).toContain('Szanowni Państwo,\nw piątek jedziemy do Krakowa&#46;\n\nProszę o zgodę &#60;do 25&#46;11&#62;&#46;');
    expect(shown).toContain('_The message goes on: read the rest in the register._');
    expect(shown).toContain('**Attachments:**');
    // Parentheses as character references, so that the Markdown link's address does not end early.
    expect(shown).toContain('- 📎 [zgoda &#40;wzór&#41;&#46;pdf](http://192.168.1.5:8099/files/ania/501/zgoda%20%28wz%C3%B3r%29.pdf)');
    // Not saved (downloads off, or it failed): named only.
    expect(shown).toContain('- 📎 plan&#46;docx');
    expect(shown).not.toContain('[plan');
  });

  it("names an attachment only without the board's own address, and under the app's panel path, which cannot lead to a file", async () => {
    for (const base of [undefined, '/hassio/ingress/abc_dziennik2mqtt']) {
      const plain = await render(messagesCard('en', base), 2, OPENED);
      expect(plain, String(base)).toContain('- 📎 zgoda &#40;wzór&#41;&#46;pdf');
      expect(plain, String(base)).not.toContain('/files/');
    }
    expect(await render(messagesCard('en', 'https://szkola.example.pl:8099/board/?x=1'), 2, OPENED)).toContain(
      '](https://szkola.example.pl:8099/board/files/ania/501/',
    );
  });

  it('says how to open one while none is', async () => {
    const shown = await render(messagesCard('pl'), 2, { 'sensor.ania_opened_message': { state: 'unknown', attributes: {} } });
    expect(shown).toContain('Żadna wiadomość nie jest otwarta');
    expect(shown).not.toContain('None');
  });
});
