// Normal tier: announcements, their unread count and events; also marks them read on command.
import { noticesResponse, type Notice } from '../../portal/schemas/notices.js';
import { noticeEntities, noticeEvents } from '../../school/notices.js';
import { UnexpectedResponseError } from '../../portal/errors.js';
import type { Gateway } from '../../portal/gateway.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

export class NoticesSource implements Source {
  readonly name = 'notices';
  readonly tier = 'normal';
  readonly entities = ['unread_notices', 'newest_notice', 'mark_notices_read', 'notice'];
  private notices: Notice[] | undefined;

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const notices = await this.load(ctx.gateway);
    return { states: noticeEntities(notices), events: { notice: noticeEvents(notices) } };
  }

  /** The announcements the portal gave in the last poll, fetched now if there was none yet. */
  async known(gateway: Gateway): Promise<readonly Notice[]> {
    return this.notices ?? (await this.load(gateway));
  }

  private async load(gateway: Gateway): Promise<Notice[]> {
    this.notices = (await gateway.get('SchoolNotices', noticesResponse)).SchoolNotices;
    return this.notices;
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

  /** States recomputed from memory (after marking read, without a new request). */
  states(): SourceResult['states'] {
    return this.notices ? noticeEntities(this.notices) : {};
  }
}
