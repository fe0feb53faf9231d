// The notices feature: its entities (the mark-read button among them), and unread_notices /
// newest_notice rendered from the school rule's view of the announcements.
import { describe, expect, it } from 'vitest';
import { notices, renderNotices } from '../../../../src/features/notices/notices.js';
import type { NoticeSummary } from '../../../../src/rules/notices.js';
import { entityTable } from '../../../helpers/entities.js';

const notice = (id: string, read: boolean): NoticeSummary => ({
  id,
  subject: `Ogłoszenie ${id}`,
  content: 'Treść',
  day: '2026-11-20',
  created: '2026-11-20T08:00:00',
  startDate: '2026-11-20',
  endDate: null,
  read,
});

describe('notices feature', () => {
  it('declares unread_notices, newest_notice, the mark-read button and the notice event', () => {
    expect(entityTable(notices.entities)).toEqual([
      ['unread_notices', 'sensor', true],
      ['newest_notice', 'sensor', true],
      ['mark_notices_read', 'button', false],
      ['notice', 'event', false],
    ]);
    expect(notices.entities[2]?.command).toEqual({ key: 'mark_notices_read', payload: 'all' });
  });

  it('counts the unread ones and shows the newest with its dates', () => {
    const states = renderNotices({ unread: [notice('2', false)], newest: notice('3', true) }, 'pl');
    expect(states.unread_notices).toEqual({ state: '1', attributes: { notices: [{ id: '2', subject: 'Ogłoszenie 2', date: '2026-11-20' }] } });
    expect(states.newest_notice?.state).toBe('Ogłoszenie 3');
    expect(states.newest_notice?.attributes).toMatchObject({ id: '3', start_date: '2026-11-20', end_date: null, read: true });
  });

  it('has no newest notice when there are none', () => {
    expect(renderNotices({ unread: [], newest: null }, 'pl').newest_notice).toEqual({ state: null, attributes: {} });
  });

  it('counts nothing while the announcements are refused: unknown, never 0', () => {
    expect(renderNotices(null, 'pl')).toEqual({ unread_notices: { state: null, attributes: {} }, newest_notice: { state: null, attributes: {} } });
  });
});
