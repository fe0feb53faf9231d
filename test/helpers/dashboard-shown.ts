// What a parent sees of a generated dashboard: each view's sections with the markdown cards Home Assistant
// would show (a card's `visibility` and a conditional card's conditions evaluated as its frontend does,
// test/helpers/lovelace-frontend.ts), rendered with Jinja2 (test/helpers/ha-templates.py) against given states.
import { renderTemplates, type TemplateJob } from './blueprints.js';
import { cardShown, innerCards } from './lovelace-frontend.js';
import type { Harness } from './app.js';
import { ENTITIES } from '../../src/features/index.js';
import { entityId } from '../../src/features/kit/entities.js';

export type HaStates = NonNullable<TemplateJob['states']>;
type Node = Record<string, unknown>;

/** A child's entities as Home Assistant holds them from what the bridge published (an empty payload: unknown). */
export function publishedStates(h: Harness, child: string): HaStates {
  const states: HaStates = {};
  for (const entity of ENTITIES) {
    const payload = h.state(child, entity.key);
    if (payload === undefined) continue;
    const state = payload === 'None' || payload === '' ? 'unknown' : entity.platform === 'binary_sensor' ? payload.toLowerCase() : payload;
    states[entityId(child, entity)] = { state, attributes: h.attributes(child, entity.key) ?? {} };
  }
  return states;
}

/** The markdown templates of a card that would be shown, in order (a hidden conditional's none). */
function shownTemplates(card: Node, states: HaStates, out: string[] = []): string[] {
  if (!cardShown(card, states)) return out;
  if (card.type === 'markdown') out.push(card.content as string);
  for (const inner of innerCards(card)) shownTemplates(inner, states, out);
  return out;
}

/** A section as shown: its heading and the text of each markdown card shown under it (empty ones left out). */
export interface ShownSection {
  heading: string | undefined;
  texts: string[];
}

/** Every section of a view as Home Assistant would show it at `now`, the templates rendered strictly. */
export async function shownView(doc: { views: Node[] }, path: string, states: HaStates, now: string): Promise<ShownSection[]> {
  const view = doc.views.find((v) => v.path === path);
  if (view === undefined) throw new Error(`no view ${path}`);
  const sections = (view.sections as Node[]).map((s) => {
    const cards = (s.cards ?? []) as Node[];
    // A heading shown under conditions (a section of boxes each shown only while known) counts only while shown.
    const title = cards.find((c) => c.type === 'heading' || (c.type === 'conditional' && (c.card as Node).type === 'heading'));
    const shown = title?.type !== 'conditional' || cardShown(title, states);
    const heading = shown ? ((title?.type === 'conditional' ? (title.card as Node).heading : title?.heading) as string | undefined) : undefined;
    return { heading, templates: cards.flatMap((c) => shownTemplates(c, states)) };
  });
  const jobs = sections.flatMap((s) => s.templates.map((template) => ({ template, variables: {}, states, strict: true, now })));
  const results = await renderTemplates(jobs);
  let i = 0;
  return sections.map((s) => ({
    heading: s.heading,
    texts: s.templates
      .map(() => results[i++]!)
      .map((r) => ('error' in r ? `ERROR ${r.error}` : String(r.value).trim()))
      .filter((text) => text !== ''),
  }));
}
