// The family view's next school day links a saved homework file to the bridge's web server under the
// board's own address (issue 36, item 12), and names it only without that address; rendered by Jinja2
// as Home Assistant renders it, the file name escaped.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderTemplates, skipWithoutJinja } from '../../helpers/blueprints.js';

type Node = Record<string, unknown>;
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

/** The family view's card of the next school day. */
function nextDayCard(lang: 'pl' | 'en' | 'uk', boardUrl?: string): string {
  const doc = parse(dashboardYaml([ania], lang, boardUrl === undefined ? {} : { boardUrl }), { version: '1.1' }) as {
    views: { path: string; sections: { cards: Node[] }[] }[];
  };
  const cards = doc.views.find((v) => v.path === 'family')!.sections.flatMap((s) => s.cards);
  return cards.find((c) => c.type === 'markdown' && (c.content as string).includes('set homework = "sensor.'))!.content as string;
}

const HOMEWORK = {
  'sensor.ania_homework_due': {
    state: '2',
    attributes: {
      date: '2026-11-24',
      items: [
        {
          subject: 'Matematyka',
          topic: 'Ułamki – karta pracy',
          attachments: ['karta (pracy).pdf'],
          files: [{ name: 'karta (pracy).pdf', url: '/files/ania/homework/771/karta%20(pracy).pdf' }],
          done: false,
        },
        { subject: 'Przyroda', topic: 'Zielnik', attachments: ['wzór.pdf'], files: [], done: false },
      ],
    },
  },
};

async function render(template: string): Promise<string> {
  const [result] = await renderTemplates([{ template, variables: {}, states: HOMEWORK, strict: true }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return result.value as string;
}

describe.skipIf(skipWithoutJinja())('homework files on the next school day (python3-jinja2)', () => {
  it("links a saved file under the board's address, and names a file not saved, or without that address", async () => {
    const linked = await render(nextDayCard('pl', 'http://192.168.1.5:8099/'));
    expect(linked).toContain(
      '- **Matematyka**: Ułamki – karta pracy · 📎 [karta &#40;pracy&#41;&#46;pdf](http://192.168.1.5:8099/files/ania/homework/771/karta%20%28pracy%29.pdf)',
    );
    expect(linked).toContain('- **Przyroda**: Zielnik · 📎 wzór&#46;pdf');
    // The add-on's panel path cannot lead to a file: named only there, as without any address.
    for (const board of [undefined, '/hassio/ingress/abc_dziennik2mqtt']) {
      const plain = await render(nextDayCard('en', board));
      expect(plain, String(board)).toContain('- **Matematyka**: Ułamki – karta pracy · 📎 karta &#40;pracy&#41;&#46;pdf');
      expect(plain, String(board)).not.toContain('/files/');
    }
  });
});
