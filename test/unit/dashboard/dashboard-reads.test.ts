// The school's files, the sent message's read state and the behaviour grade on a child's view, their
// templates rendered by Jinja2 as Home Assistant renders them (test/helpers/ha-templates.py) against
// the states the features publish (issue 29, items 2-4), in each language, portal text escaped.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
type Lang = 'pl' | 'en' | 'uk';
type States = Record<string, { state: string; attributes: Record<string, unknown> }>;
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The markdown card of Ania's view that sets this variable (the card of that template). */
function card(variable: string, lang: Lang, boardUrl?: string, child: DashboardChild = ania): string | undefined {
  const doc = parse(dashboardYaml([child], lang, boardUrl === undefined ? {} : { boardUrl }), { version: '1.1' }) as {
    views: { path: string; sections: { cards: Node[] }[] }[];
  };
  const view = doc.views.find((v) => v.path === child.id)!;
  const cards = view.sections
    .flatMap((s) => s.cards)
    .flatMap((c) => (c.type === 'vertical-stack' ? (c.cards as Node[]) : [c]))
    .map((c) => (c.type === 'conditional' ? (c.card as Node) : c));
  const found = cards.find((c) => c.type === 'markdown' && (c.content as string).includes(`set ${variable} = "sensor.`));
  return found?.content as string | undefined;
}

/** The conditions of the conditional card around the card of this variable. */
function conditions(variable: string): unknown {
  const doc = parse(dashboardYaml([ania], 'pl'), { version: '1.1' }) as { views: { path: string; sections: { cards: Node[] }[] }[] };
  const cards = doc.views.find((v) => v.path === 'ania')!.sections.flatMap((s) => s.cards);
  return cards.find((c) => c.type === 'conditional' && String((c.card as Node).content ?? '').includes(`set ${variable} = "sensor.`))?.conditions;
}

async function render(variable: string, lang: Lang, states: States, boardUrl?: string): Promise<string> {
  const [result] = await renderTemplates([{ template: card(variable, lang, boardUrl)!, variables: {}, states, strict: true }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return result.value as string;
}

const FILES: States = {
  'sensor.ania_school_files': {
    state: '3',
    attributes: {
      files: [
        {
          id: '34',
          name: 'Regulamin (wycieczki).pdf',
          date: '2026-11-20',
          path: '/data/downloads/ania/school/34/x.pdf',
          url: '/files/ania/school/34/Regulamin%20(wycieczki).pdf',
        },
        { id: '31', name: '[bank](http://evil.example) ![x](http://evil.example/x.png)', date: '2026-09-06' },
        { id: '32', name: 'Statut szkoły.pdf', date: null },
      ],
    },
  },
};

const SENT: States = {
  'sensor.ania_sent_message': {
    state: 'Nieobecność Ania',
    attributes: {
      message_id: '9001',
      to: ['Anna Nowak', 'Jan *Kowalski*'],
      date: '2026-11-23 09:12:00',
      read_by_all: false,
      read: [
        { name: 'Anna Nowak', read: true, read_at: '2026-11-23T10:05:00+01:00' },
        { name: 'Jan *Kowalski*', read: false, read_at: null },
      ],
    },
  },
};

const BEHAVIOUR: States = {
  'sensor.ania_behaviour': {
    state: 'wzorowe (propozycja)',
    attributes: { grade: 'wzorowe', proposal: true, semester_grade: { grade: 'bardzo dobre', proposal: false }, final_grade: null, points: null },
  },
};

describe('the cards of the school files, the sent message and behaviour', () => {
  it('are on a child view in every language, reading the declared entities, and left out for a child without them', () => {
    for (const lang of ['pl', 'en', 'uk'] as const) {
      for (const variable of ['school_files', 'sent_message', 'behaviour']) expect(card(variable, lang), `${lang} ${variable}`).toBeDefined();
    }
    const jan: DashboardChild = {
      id: 'jan',
      name: 'Jan',
      entities: ENTITIES.filter((e) => !['school_files', 'sent_message', 'behaviour'].includes(e.key)),
    };
    for (const variable of ['school_files', 'sent_message', 'behaviour']) expect(card(variable, 'pl', undefined, jan)).toBeUndefined();
  });
});

describe.skipIf(skipWithoutJinja())('the cards rendered (python3-jinja2)', () => {
  it("lists the school's newest files with their day, a saved one linked under the board's address, names escaped", async () => {
    const shown = await render('school_files', 'pl', FILES, 'http://192.168.1.5:8099/');
    expect(shown).toContain('#### Pliki szkoły');
    expect(shown).toContain(
      '- [Regulamin &#40;wycieczki&#41;&#46;pdf](http://192.168.1.5:8099/files/ania/school/34/Regulamin%20%28wycieczki%29.pdf) <small>pt. 20.11</small>',
    );
    // A portal name is shown as written: no link, no remote image.
    expect(shown).toContain(
      '- **&#91;bank&#93;&#40;http&#58;//evil&#46;example&#41; &#33;&#91;x&#93;&#40;http&#58;//evil&#46;example/x&#46;png&#41;** <small>niedz. 06.09</small>',
    );
    expect(shown).not.toContain('](http://evil');
    expect(shown).toMatch(/^- \*\*Statut szkoły&#46;pdf\*\*$/m);
    // Without the board's address a saved file is named only.
    expect(await render('school_files', 'en', FILES)).toContain('- **Regulamin &#40;wycieczki&#41;&#46;pdf** <small>Fri 20 Nov</small>');
    // Before the first read (the list is read a few times a day) the card is hidden rather than saying "no files".
    expect(conditions('school_files')).toEqual([
      { condition: 'state', entity: 'sensor.ania_school_files', state_not: 'unknown' },
      { condition: 'state', entity: 'sensor.ania_school_files', state_not: 'unavailable' },
    ]);
    expect(await render('school_files', 'uk', { 'sensor.ania_school_files': { state: '0', attributes: { files: [] } } })).toContain(
      'Школа не надає файлів.',
    );
  });

  it('shows the newest sent message and, per receiver, whether and when they read it', async () => {
    const shown = await render('sent_message', 'pl', SENT);
    expect(shown).toContain('#### Wysłana wiadomość');
    expect(shown).toContain('**Nieobecność Ania** <small>pon. 23.11</small>');
    expect(shown).toContain('- ✅ Anna Nowak: przeczytano pon. 23.11 10:05');
    expect(shown).toContain('- ✉️ Jan &#42;Kowalski&#42;: jeszcze nie przeczytana');
    expect(await render('sent_message', 'en', SENT)).toContain('- ✅ Anna Nowak: read Mon 23 Nov 10:05');
    expect(await render('sent_message', 'uk', SENT)).toContain('ще не прочитано');
    // None known yet: the card is hidden (not an empty box), and says nothing rather than "None".
    expect(conditions('sent_message')).toEqual([
      { condition: 'state', entity: 'sensor.ania_sent_message', state_not: 'unknown' },
      { condition: 'state', entity: 'sensor.ania_sent_message', state_not: 'unavailable' },
    ]);
    const none = await render('sent_message', 'pl', { 'sensor.ania_sent_message': { state: 'unknown', attributes: { to: [], read: [] } } });
    expect(none.trim()).toBe('');
  });

  it("shows the behaviour grade as a parent reads it, with the semester's grade once given", async () => {
    expect(await render('behaviour', 'pl', BEHAVIOUR)).toContain('#### Zachowanie\n**wzorowe &#40;propozycja&#41;** · śródroczna: bardzo dobre');
    expect(await render('behaviour', 'en', BEHAVIOUR)).toContain('#### Behaviour\n**wzorowe &#40;propozycja&#41;** · semester: bardzo dobre');
    const year = await render('behaviour', 'uk', {
      'sensor.ania_behaviour': { state: 'bardzo dobre', attributes: { semester_grade: null, final_grade: { grade: 'bardzo dobre' } } },
    });
    expect(year).toContain('#### Поведінка\n**bardzo dobre** · річна: bardzo dobre');
    expect(year).not.toContain('семестрова');
    expect(await render('behaviour', 'pl', { 'sensor.ania_behaviour': { state: 'unknown', attributes: {} } })).toContain('#### Zachowanie\n—');
  });
});
