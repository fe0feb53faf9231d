// The notices feature: announcements, their unread count and events; the
// mark_notices_read button marks them read.
import type { Language } from '../../config/language.js';
import { UNTITLED } from '../../i18n/school-words.js';
import type { Notice } from '../../portal/schemas/notices.js';
import { cut, noticeEvents, noticeSummaries, noticesView, type NoticePayload, type NoticesView } from '../../rules/notices.js';
import { UnexpectedResponseError } from '../../portal/errors.js';
import type { Gateway } from '../../portal/gateway.js';
import type { ResourceCache } from '../../engine/cache.js';
import { want } from '../../engine/resource.js';
import { NOTICES } from '../../engine/resources/school.js';
import { CommandError, type CommandRequest } from '../kit/commands.js';
import { button, eventEntity, sensor } from '../kit/entities.js';
import { stateText } from '../kit/render.js';
import { feature, type CommandAccount } from '../feature.js';
import { CHECK_TEXT } from '../../i18n/check-text.js';
import { boardCount, type BoardNotice, type BoardPart } from '../screens/parts.js';
import { dayShort, list, str } from '../screens/shown.js';
import { markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { shape, statesOf, type Events, type Worded } from '../kit/contract.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import { noticesAsk, type NoticesAsk } from './ask.js';

/** Unread announcements listed in unread_notices' attributes. */
const NEWEST_IN_ATTRIBUTES = 5;
/** Longest announcement text in newest_notice's attributes. */
const CONTENT_LIMIT = 4000;

/** The attributes of unread_notices: the newest few unread announcements. */
export type UnreadNotices = { notices: { id: string; subject: string; date: string }[] };

/** The attributes of newest_notice: the newest announcement, its content cut. */
const newestFacts = (newest: NonNullable<NoticesView['newest']>) => ({
  id: newest.id,
  content: cut(newest.content, CONTENT_LIMIT),
  created: newest.created,
  start_date: newest.startDate,
  end_date: newest.endDate,
  read: newest.read,
});
export type NewestNoticeFacts = ReturnType<typeof newestFacts>;

/** Refused, the announcements are unknown (the view null). */
const unknown = () => ({ state: null, attributes: {} });

export const unreadNotices = sensor(
  'unread_notices',
  { en: 'Unread announcements', pl: 'Nieprzeczytane ogłoszenia', uk: 'Непрочитані оголошення' },
  {
    icon: 'mdi:bulletin-board',
    stateClass: 'measurement',
    attributes: shape<UnreadNotices>(),
    module: [NOTICES],
    // How many are unread, the newest few beside.
    state: ({ view }: Worded<NoticesView | null>) =>
      view === null
        ? unknown()
        : {
            state: String(view.unread.length),
            attributes: { notices: view.unread.slice(0, NEWEST_IN_ATTRIBUTES).map((n) => ({ id: n.id, subject: n.subject, date: n.day })) },
          },
  },
);
export const newestNotice = sensor(
  'newest_notice',
  { en: 'Newest announcement', pl: 'Najnowsze ogłoszenie', uk: 'Останнє оголошення' },
  {
    icon: 'mdi:bulletin-board',
    attributes: shape<NewestNoticeFacts>(),
    module: [NOTICES],
    // The newest announcement's subject (one without says so).
    state: ({ view, language }: Worded<NoticesView | null>) =>
      view?.newest ? { state: stateText(view.newest.subject) || UNTITLED[language], attributes: newestFacts(view.newest) } : unknown(),
  },
);
export const markNoticesReadButton = button(
  'mark_notices_read',
  { en: 'Mark announcements read', pl: 'Oznacz ogłoszenia jako przeczytane', uk: 'Позначити оголошення прочитаними' },
  { icon: 'mdi:email-open-multiple', command: { key: 'mark_notices_read', payload: 'all' }, module: [NOTICES] },
);
export const noticeEvent = eventEntity('notice', { en: 'Announcement', pl: 'Ogłoszenie', uk: 'Оголошення' }, 'mdi:bulletin-board', {
  payload: shape<NoticePayload>(),
  module: [NOTICES],
});

/** The unread count under the child's name, and the unread announcements by their titles, newest first. */
function noticesBoard(child: Parameters<BoardPart>[0]): ReturnType<BoardPart> {
  const { clock, text } = child;
  const notices = list(child.state(unreadNotices)?.attributes?.notices).flatMap((n): BoardNotice[] => {
    const title = str(n.subject);
    if (title === null) return [];
    const date = str(n.date);
    return [{ title, when: date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date) ? null : dayShort(date, clock, text) }];
  });
  return { ...boardCount(child, unreadNotices, true, text.labels.notices), notices };
}

/** The feature's name: what it keeps for Assist goes by it. */
const NOTICES_FEATURE = 'notices';

export const notices = feature({
  name: NOTICES_FEATURE,
  reads: () => [want(NOTICES)],
  entities: [unreadNotices, newestNotice, markNoticesReadButton, noticeEvent],
  create: (access) => new NoticesSource(access.language),
  commands: { mark_notices_read: markNoticesRead },
  board: noticesBoard,
  ask: noticesAsk,
  dashboard: {
    fact: { entity: unreadNotices, icon: '📌' },
    // The newest notice of the school, in the child's messages.
    child: [
      {
        section: 'messages',
        block: (e, t) =>
          e.has(newestNotice) ? markdown(e, t, 'features/notices/newest-notice', keyed(newestNotice, 'start_date', 'content')) : undefined,
      },
    ],
  },
  check: { read: NOTICES, name: (language) => CHECK_TEXT[language].module.announcements },
});

/** Marks every unread announcement read ("all") or one by its id, then publishes the new counts. */
async function markNoticesRead(req: CommandRequest, account: CommandAccount, source: NoticesSource): Promise<Record<string, unknown>> {
  const wanted = req.arg.trim();
  // Ids are only ever taken from what the portal gave; a payload that cannot be one is refused
  // before any request.
  if (wanted !== 'all' && !/^[A-Za-z0-9_-]{1,128}$/.test(wanted)) {
    throw new CommandError('send "all" or one announcement id');
  }
  const notices = await source.known(account.cache);
  const ids = wanted === 'all' ? notices.filter((n) => !n.WasRead).map((n) => n.Id) : notices.filter((n) => n.Id === wanted).map((n) => n.Id);
  if (wanted !== 'all' && ids.length === 0) throw new CommandError('unknown announcement id (send "all" or an id from newest_notice/unread_notices)');
  const marked = await source.markRead(account.gateway, ids);
  const states = source.states();
  if (states !== undefined) account.publishStates(states, { [NOTICES_FEATURE]: source.asked() });
  return { marked, already_read: ids.length - marked };
}

class NoticesSource implements Source {
  private notices: Notice[] | undefined;

  constructor(private readonly language: Language) {}

  compute(ctx: SourceContext): Promise<SourceResult> {
    // Refused, the announcements are unknown (never 0 unread); not read yet, the last ones stand.
    const notices = ctx.cache.get(NOTICES)?.SchoolNotices ?? (ctx.cache.refused(NOTICES) ? undefined : this.notices);
    this.notices = notices;
    if (notices === undefined) return Promise.resolve({ states: renderNotices(null, this.language), ask: { notices: null } satisfies NoticesAsk });
    const view = noticesView(notices);
    return Promise.resolve({
      states: renderNotices(view, this.language),
      ask: { notices: noticeSummaries(notices) } satisfies NoticesAsk,
      events: { notice: noticeEvents(notices) } satisfies Events<typeof noticeEvent>,
    });
  }

  /** The announcements the portal gave in the last computation; before one, read through their declaration (never around it). */
  async known(cache: ResourceCache): Promise<readonly Notice[]> {
    if (this.notices === undefined && cache.peek(NOTICES) === undefined) await cache.read(want(NOTICES));
    this.notices ??= cache.peek(NOTICES)?.SchoolNotices;
    return this.notices ?? [];
  }

  /**
   * Marks the given announcements read. An already read one answers 400 InvalidRequest, which means
   * done (spec 3.3). Returns how many were marked.
   */
  async markRead(gateway: Gateway, ids: readonly string[]): Promise<number> {
    let marked = 0;
    for (const id of ids) {
      try {
        await gateway.post(`SchoolNotices/MarkAsRead/${encodeURIComponent(id)}`);
        marked++;
      } catch (error) {
        if (!(error instanceof UnexpectedResponseError && error.status === 400 && error.code === 'InvalidRequest')) throw error;
      }
      const notice = this.notices?.find((n) => n.Id === id);
      if (notice) notice.WasRead = true;
    }
    return marked;
  }

  /** What Assist is told, from memory (after marking read). */
  asked(): NoticesAsk {
    return { notices: this.notices ? noticeSummaries(this.notices) : null };
  }

  /** States recomputed from memory (after marking read, without a new request). */
  states(): SourceResult['states'] {
    return this.notices ? renderNotices(noticesView(this.notices), this.language) : undefined;
  }
}

/** unread_notices counts the unread announcements (the newest few as attributes); newest_notice shows a subject. */
export function renderNotices(view: NoticesView | null, language: Language) {
  return statesOf([unreadNotices, newestNotice], { view, language });
}
