// The wall-tablet dashboard, built only from Home Assistant's own cards: a first view with every child
// side by side (the day at a glance), one view per child for the details, and the bridge's diagnostics
// in a view of their own. Pure: the children and the entities the bridge announces for each go in, the
// dashboard comes out; a block whose entities a child lacks is left out.
import { stringify } from 'yaml';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../../config/language.js';
import { DASHBOARD_TEXT, type DashboardText } from '../../i18n/dashboard-text.js';
import { FEATURES } from '../../features/index.js';
import { buttonRow, heading, ifOn, markdown, whileOn } from '../../features/screens/cards.js';
import { markdownText } from '../../features/screens/templates.js';
import { ChildEntities, type DashboardChild } from '../../features/screens/child-entities.js';
import type { Block, Card, ChildSection, DashboardPlace, FamilySlot } from '../../features/screens/parts.js';
import { bridgeEntityIds } from '../mqtt/discovery.js';
import { attendanceGraph, averagesGraph } from './year-graph.js';

export type { Card } from '../../features/screens/parts.js';
export type { DashboardChild } from '../../features/screens/child-entities.js';

/** The dashboard speaks the languages of the config's `language`. */
export const DASHBOARD_LANGS = LANGUAGES;
export type DashboardLang = Language;

/** The family view's column for each child, top to bottom: the features' cards by their place, the banners and the summary after the alerts. */
const FAMILY_SLOTS: readonly FamilySlot[] = ['alert', 'lead', 'day', 'ahead', 'news'];

/** A child's own view: one section per group of the features' cards, in this order, titled by the group's words. */
const CHILD_SECTIONS: readonly ChildSection[] = ['activities', 'grades', 'lessons', 'notesAbsences', 'calendar', 'messages', 'school'];

const PARTS = FEATURES.flatMap((f) => (f.dashboard ? [f.dashboard] : []));
const familyAt = (slot: FamilySlot): Block[] => PARTS.flatMap((p) => (p.family ?? []).filter((c) => c.at === slot).map((c) => c.block));

/** The features' banners over the child's column, each shown while its binary sensor is ON. */
const banners: Block[] = PARTS.flatMap(({ banner }) => (banner ? [banner] : [])).map(({ while: on, icon, says }) => (e, _t, { language }) => {
  const content = `### ${icon} ${says(language, markdownText(e.child.name))}`;
  return e.has(on) ? ifOn(e.id(on), { type: 'markdown', text_only: true, content }) : undefined;
});

/** The features' facts on one line, each its entity's name and state. */
const summary: Block = (e, t, { language }) => {
  const facts = PARTS.flatMap(({ fact }) => (fact && e.has(fact.entity) ? [fact] : []));
  if (facts.length === 0) return undefined;
  const list = facts.map(({ entity, icon, day, mark }) => ({
    id: e.id(entity),
    icon,
    label: entity.name[language],
    day: day ?? '',
    mark: mark?.attribute ?? '',
    says: mark?.says(language) ?? '',
  }));
  // Without a frame: the family view must fit a 1280x800 tablet for two children.
  return markdown(e, t, 'outputs/homeassistant/templates/summary', { facts: { list } }, { text_only: true });
};

/**
 * The family view's column for each child: the alerts, the features' banners and summary, then the features'
 * cards by their place. A kindergarten child's column has no tests and shows its newest message and
 * announcement instead, the news a kindergarten sends (the features' blocks say so).
 */
const FAMILY_BLOCKS: readonly Block[] = [...familyAt('alert'), ...banners, summary, ...FAMILY_SLOTS.slice(1).flatMap(familyAt)];

export interface DashboardExtras {
  /**
   * Where the family view's link to the bridge's own board goes: a Home Assistant path (`/hassio/ingress/...`,
   * the add-on's panel) or a full URL (http://host:8099/). No link when not given.
   */
  boardUrl?: string;
  /** The bridge's base topic, which names the bridge device's entities (default `dziennik2mqtt`). */
  baseTopic?: string;
  /** The school year is imported into Home Assistant's statistics (homeassistant.statistics): each child's view graphs it. */
  statistics?: boolean;
}

/** The dashboard as a Lovelace config object. */
export function dashboard(
  children: readonly DashboardChild[],
  lang: DashboardLang = FALLBACK_LANGUAGE,
  extras: DashboardExtras = {},
): Record<string, unknown> {
  const t = DASHBOARD_TEXT[lang];
  const entities = children.map((child) => new ChildEntities(child));
  const at: DashboardPlace = { language: lang, base: webBase(extras.boardUrl) };
  const views = [
    familyView(entities, t, at, extras.boardUrl),
    ...entities.map((e) => childView(e, t, at, extras.statistics === true)),
    diagnosticsView(entities, t, at, extras.baseTopic ?? 'dziennik2mqtt'),
  ];
  return { title: t.title, views: views.filter((v): v is Card => v !== undefined) };
}

/** The dashboard as YAML, ready for "Raw configuration editor". */
export function dashboardYaml(children: readonly DashboardChild[], lang: DashboardLang = FALLBACK_LANGUAGE, extras: DashboardExtras = {}): string {
  const header = `# ${DASHBOARD_TEXT[lang].header}\n`;
  // YAML 1.1 rules quote "on"/"off": Home Assistant's own YAML loader would read them as booleans.
  return header + stringify(dashboard(children, lang, extras), { lineWidth: 0, version: '1.1' });
}

/** A sections view; tabs show their title (an icon alone means nothing on a touch screen). */
function view(title: string, path: string, sections: (Card | undefined)[], maxColumns: number): Card | undefined {
  const present = sections.filter((s): s is Card => s !== undefined);
  if (present.length === 0) return undefined;
  return { title, path, type: 'sections', max_columns: maxColumns, sections: present };
}

/**
 * A section with a heading, or nothing when none of its cards applies to the child. When every card is
 * shown only under its conditions (a list not known yet), so is the heading: never a title over nothing.
 */
function section(title: string, cards: (Card | undefined)[]): Card | undefined {
  const present = cards.filter((c): c is Card => c !== undefined);
  if (present.length === 0) return undefined;
  const conditional = present.every((c) => c.type === 'conditional');
  const shown = conditional
    ? {
        type: 'conditional',
        conditions: [{ condition: 'or', conditions: present.map((c) => ({ condition: 'and', conditions: c.conditions })) }],
        card: heading(title),
        // The width of the heading it holds, whatever the section makes of a conditional card.
        grid_options: { columns: 'full' },
      }
    : heading(title);
  return { type: 'grid', cards: [shown, ...present] };
}

/** A section of those of the blocks that apply to the child. */
function blocksSection(title: string, blocks: readonly Block[], e: ChildEntities, t: DashboardText, at: DashboardPlace): Card | undefined {
  return section(
    title,
    blocks.map((block) => block(e, t, at)),
  );
}

function familyView(children: readonly ChildEntities[], t: DashboardText, at: DashboardPlace, boardUrl: string | undefined): Card | undefined {
  const sections = children.map((e) => blocksSection(e.child.name, FAMILY_BLOCKS, e, t, at));
  // After the children's columns, so the day at a glance stays where it was.
  if (boardUrl !== undefined && sections.some((s) => s !== undefined)) sections.push({ type: 'grid', cards: [boardLink(boardUrl, t)] });
  return view(t.family, 'family', sections, Math.max(1, Math.min(children.length, 4)));
}

/**
 * The link to the bridge's board, as a heading that acts when tapped (Home Assistant marks it with a
 * chevron): a card of its own would push the family view past a 1280x800 screen. A path inside Home
 * Assistant (the add-on's ingress panel) opens in place, an address of its own in a new tab. The token
 * is never in it (see docs/calendars-and-board.md, "Family board").
 */
function boardLink(url: string, t: DashboardText): Card {
  const action = url.startsWith('/') ? { action: 'navigate', navigation_path: url } : { action: 'url', url_path: url };
  return { type: 'heading', heading: t.board, heading_style: 'subtitle', icon: 'mdi:view-dashboard-variant', tap_action: action };
}

function childView(e: ChildEntities, t: DashboardText, at: DashboardPlace, statistics: boolean): Card | undefined {
  const sections = CHILD_SECTIONS.map((name) => {
    const blocks = PARTS.flatMap((p) => (p.child ?? []).filter((c) => c.section === name).map((c) => c.block));
    // The year from Home Assistant's statistics, first in its section: the averages over the grades, the attendance over the notes.
    if (name === 'grades' && statistics) blocks.unshift((child) => averagesGraph(child, t.yearGraph));
    if (name === 'notesAbsences' && statistics) blocks.unshift((child) => attendanceGraph(child, t.yearAttendance));
    return blocksSection(name === 'school' ? t.school.heading : t[name], blocks, e, t, at);
  });
  return view(e.child.name, e.child.id, sections, 4);
}

/**
 * What the web server's paths (an attachment's `/files/...`) are put after: the board's own address
 * without its last slash, query or fragment (the board's token is never in it). Not the app's panel
 * path (`/hassio/ingress/<slug>`): Home Assistant opens the add-on's start page there whatever follows
 * it, so a file cannot be linked through it (the board in the panel links them).
 */
function webBase(boardUrl: string | undefined): string | undefined {
  if (boardUrl === undefined || !/^https?:\/\//i.test(boardUrl)) return undefined;
  return boardUrl.replace(/[?#].*$/, '').replace(/\/+$/, '');
}

const DIAGNOSTICS_BLOCKS: readonly Block[] = PARTS.flatMap((p) => p.diagnostics ?? []);

function diagnosticsView(children: readonly ChildEntities[], t: DashboardText, at: DashboardPlace, baseTopic: string): Card | undefined {
  const sections = children.map((e) => blocksSection(e.child.name, DIAGNOSTICS_BLOCKS, e, t, at));
  // The bridge itself after the children, once there is a child to show.
  if (sections.some((s) => s !== undefined)) sections.push(section(t.bridge, [bridgeDevice(bridgeEntityIds(baseTopic), t)]));
  return view(t.diagnostics, 'bridge', sections, 4);
}

/**
 * The bridge's own device: its problem while it is on (an e-mail entry that names no child yet, a topic
 * the broker refused), its broker connection, since when it runs, its memory (off until turned on), its
 * update (none in the app, whose update is the Supervisor's), and the weekly summary on demand.
 */
export function bridgeDevice(ids: ReturnType<typeof bridgeEntityIds>, t: DashboardText): Card {
  return {
    // One a row: three a row cut even "Broker MQTT" short in a section's width.
    type: 'vertical-stack',
    cards: [
      ifOn(ids.problem, { type: 'tile', entity: ids.problem, name: t.problemRow }),
      { type: 'tile', entity: ids.connection, name: t.broker },
      { type: 'tile', entity: ids.uptime, name: t.uptime },
      whileOn(ids.memory, { type: 'tile', entity: ids.memory, name: t.memory }),
      whileOn(ids.update, { type: 'tile', entity: ids.update, name: t.update }),
      { type: 'entities', entities: [buttonRow(ids.summaryNow, t.summaryNow, t.summaryNowAction)] },
    ],
  };
}
