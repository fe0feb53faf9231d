// The wall-tablet dashboard, built only from Home Assistant's own cards: a first view with every child
// side by side (the day at a glance), one view per child for the details, and the bridge's diagnostics
// in a view of their own. Pure: the children and the entities the bridge announces for each go in, the
// dashboard comes out; a block whose entities a child lacks is left out.
import { stringify } from 'yaml';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../config/language.js';
import { DASHBOARD_TEXT, type DashboardText } from '../i18n/dashboard-text.js';
import {
  banners,
  briefingLine,
  ChildEntities,
  heading,
  nextDay,
  passwordAdviceBanner,
  preschoolNews,
  problemBanner,
  summary,
  testsWeek,
  today,
  type Block,
  type Card,
  type DashboardChild,
} from './dashboard-cards.js';
import {
  accountFigures,
  attendanceBySubject,
  behaviour,
  bridgeDevice,
  calendar,
  diagnostics,
  grades,
  homeworkWeeks,
  lessons,
  library,
  messageButtons,
  messagesCard,
  newestNoticeCard,
  notesAndAbsences,
  schoolCard,
  schoolFilesCard,
  sentMessageCard,
} from './dashboard-details.js';
import { bridgeEntityIds } from './discovery.js';

export type { Card, DashboardChild } from './dashboard-cards.js';

/** The dashboard speaks the languages of the config's `language`. */
export const DASHBOARD_LANGS = LANGUAGES;
export type DashboardLang = Language;

/**
 * The family view's column for each child, top to bottom; `base` is where a saved file's link goes (see
 * webBase); the features' banners and summary facts in `lang`. A kindergarten child's column has no tests (testsWeek gives none) and shows its newest message
 * and announcement instead, the news a kindergarten sends.
 */
function familyBlocks(lang: Language, base: string | undefined): readonly Block[] {
  return [problemBanner, ...banners(lang), summary(lang), briefingLine, today, nextDay(base), testsWeek, preschoolNews];
}

/**
 * A child's own view: one section per group of blocks. A kindergarten child's starts with its day (the
 * blocks by their hours, today and the next day), and has no grades, lessons held or behaviour.
 */
function childSections(lang: Language, boardUrl: string | undefined): readonly { title: (t: DashboardText) => string; blocks: readonly Block[] }[] {
  return [
    {
      title: (t) => t.activities,
      blocks: [(e, t) => (e.preschool ? today(e, t) : undefined), (e, t) => (e.preschool ? nextDay(webBase(boardUrl))(e, t) : undefined)],
    },
    { title: (t) => t.grades, blocks: [grades] },
    { title: (t) => t.lessons, blocks: [lessons] },
    { title: (t) => t.notesAbsences, blocks: [notesAndAbsences, attendanceBySubject, behaviour, library] },
    { title: (t) => t.calendar, blocks: [homeworkWeeks, calendar] },
    {
      title: (t) => t.messages,
      blocks: [messagesCard(webBase(boardUrl)), sentMessageCard, newestNoticeCard, schoolFilesCard(webBase(boardUrl)), messageButtons(lang)],
    },
    { title: (t) => t.school.heading, blocks: [schoolCard] },
  ];
}

export interface DashboardExtras {
  /**
   * Where the family view's link to the bridge's own board goes: a Home Assistant path (`/hassio/ingress/...`,
   * the add-on's panel) or a full URL (http://host:8099/). No link when not given.
   */
  boardUrl?: string;
  /** The bridge's base topic, which names the bridge device's entities (default `dziennik2mqtt`). */
  baseTopic?: string;
}

/** The dashboard as a Lovelace config object. */
export function dashboard(
  children: readonly DashboardChild[],
  lang: DashboardLang = FALLBACK_LANGUAGE,
  extras: DashboardExtras = {},
): Record<string, unknown> {
  const t = DASHBOARD_TEXT[lang];
  const entities = children.map((child) => new ChildEntities(child));
  const views = [
    familyView(entities, t, lang, extras.boardUrl),
    ...entities.map((e) => childView(e, t, lang, extras.boardUrl)),
    diagnosticsView(entities, t, extras.baseTopic ?? 'dziennik2mqtt'),
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
function blocksSection(title: string, blocks: readonly Block[], e: ChildEntities, t: DashboardText): Card | undefined {
  return section(
    title,
    blocks.map((block) => block(e, t)),
  );
}

function familyView(children: readonly ChildEntities[], t: DashboardText, lang: Language, boardUrl: string | undefined): Card | undefined {
  const blocks = familyBlocks(lang, webBase(boardUrl));
  const sections = children.map((e) => blocksSection(e.child.name, blocks, e, t));
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

function childView(e: ChildEntities, t: DashboardText, lang: Language, boardUrl: string | undefined): Card | undefined {
  const sections = childSections(lang, boardUrl).map((s) => blocksSection(s.title(t), s.blocks, e, t));
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

function diagnosticsView(children: readonly ChildEntities[], t: DashboardText, baseTopic: string): Card | undefined {
  const sections = children.map((e) => blocksSection(e.child.name, [problemBanner, passwordAdviceBanner, diagnostics, accountFigures], e, t));
  // The bridge itself after the children, once there is a child to show.
  if (sections.some((s) => s !== undefined)) sections.push(section(t.bridge, [bridgeDevice(bridgeEntityIds(baseTopic), t)]));
  return view(t.diagnostics, 'bridge', sections, 4);
}
