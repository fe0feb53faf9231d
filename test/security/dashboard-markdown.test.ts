// Portal text in the dashboard's Markdown cards, rendered by Jinja2 as Home Assistant renders them
// (test/helpers/ha-templates.py): a sender, topic, preview, text or attachment name made of Markdown
// (`![x](http://evil/x.png)` would load a remote image, `[bank](http://evil)` disguise a link) or of
// HTML comes out escaped (md() of every card's prelude), so it shows as written. The old cards put it
// into the Markdown as it came.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../src/features/index.js';
import { skipWithoutJinja, renderTemplates } from '../helpers/blueprints.js';

type Node = Record<string, unknown>;

const IMAGE = '![x](http://evil/x.png)';
const LINK = '[bank](http://evil)';
const HTML = '<img src=http://evil/y.png> **bold** # not a heading {{ 7*7 }}';

/** Every Markdown card of the dashboard, wherever it is nested. */
function markdownCards(node: unknown, found: Node[] = []): Node[] {
  if (Array.isArray(node)) for (const n of node) markdownCards(n, found);
  else if (node !== null && typeof node === 'object') {
    const card = node as Node;
    if (card.type === 'markdown') found.push(card);
    for (const value of Object.values(card)) markdownCards(value, found);
  }
  return found;
}

/** What a reader sees of escaped Markdown text: each character reference as the character it stands for. */
const unescaped = (text: string): string => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

describe.skipIf(skipWithoutJinja())('portal text in the dashboard', () => {
  it('shows a hostile sender, topic, preview, text and attachment name as written, never as an image, a link or HTML', async () => {
    const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };
    const doc = parse(dashboardYaml([ania], 'en', { boardUrl: 'http://192.168.1.5:8099/' }), { version: '1.1' });
    const cards = markdownCards(doc);
    const states = {
      'sensor.ania_unread_messages': { state: '1', attributes: {} },
      'sensor.ania_newest_message': { state: LINK, attributes: { id: '7', sender: IMAGE, date: '2026-11-20 14:05', read: false, preview: HTML } },
      'sensor.ania_opened_message': {
        state: LINK,
        attributes: {
          message_id: '7',
          sender: IMAGE,
          date: '2026-11-20 14:05',
          text: `${HTML}\n${IMAGE}`,
          truncated: false,
          attachments: [{ name: `${LINK}.pdf` }],
        },
      },
    };
    const messageCards = cards.filter(
      (c) => String(c.content).includes('sensor.ania_newest_message') || String(c.content).includes('sensor.ania_opened_message'),
    );
    expect(messageCards).toHaveLength(2);
    const results = await renderTemplates(messageCards.map((c) => ({ template: String(c.content), variables: {}, states, strict: true })));
    const shown = results.map((r) => {
      if (!r || 'error' in r) throw new Error(`template failed: ${JSON.stringify(r)}`);
      return r.value as string;
    });
    for (const text of shown) {
      // Nothing a Markdown renderer would take for an image, a link, an autolink or a tag.
      expect(text).not.toContain('![');
      expect(text).not.toMatch(/\[[^\]]*\]\(/);
      expect(text).not.toContain('http://');
      expect(text).not.toContain('<img');
      expect(text).not.toContain('49');
    }
    // And the reader sees every string exactly as the portal sent it.
    const [newest, opened] = shown.map(unescaped);
    for (const written of [LINK, IMAGE, HTML]) expect(newest).toContain(written);
    for (const written of [LINK, IMAGE, HTML, `${LINK}.pdf`]) expect(opened).toContain(written);
  });

  it("escapes a child's name written into a card when the dashboard is made", async () => {
    const evil: DashboardChild = { id: 'ania', name: `Ania ${IMAGE} {{ 7*7 }}`, entities: ENTITIES };
    const cards = markdownCards(parse(dashboardYaml([evil], 'en'), { version: '1.1' }));
    const named = cards.filter((c) => unescaped(String(c.content)).includes(IMAGE));
    expect(named.length).toBeGreaterThan(0);
    const [result] = await renderTemplates(named.map((c) => ({ template: String(c.content), variables: {}, states: {}, strict: false })));
    if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
    expect(result.value).not.toContain('![');
    expect(result.value).not.toContain('49');
    expect(unescaped(result.value as string)).toContain(`Ania ${IMAGE} {{ 7*7 }}`);
  });
});
