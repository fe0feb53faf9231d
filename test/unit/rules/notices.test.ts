// Announcements: the unread count with the newest few, the newest one's subject cut for a state, and
// one event per announcement.
import { describe, expect, it } from 'vitest';
import { noticesResponse } from '../../../src/portal/schemas/notices.js';
import { noticeEvents, noticesView } from '../../../src/rules/notices.js';
import { renderNotices } from '../../../src/features/notices/notices.js';

const notices = (list: Record<string, unknown>[]) => noticesResponse.parse({ SchoolNotices: list }).SchoolNotices;

describe('notices, rendered', () => {
  const six = notices(
    Array.from({ length: 6 }, (_, i) => ({
      Id: `N${i}`,
      Subject: `Ogłoszenie ${i}`,
      Content: 'treść',
      CreationDate: `2026-11-1${i} 08:00:00`,
      WasRead: false,
    })),
  );

  it('counts every unread announcement and lists the newest five', () => {
    const states = renderNotices(
      noticesView([...six, ...notices([{ Id: 'R', Subject: 'Stare', CreationDate: '2026-11-19 08:00:00', WasRead: true }])]),
      'pl',
    );
    expect(states.unread_notices?.state).toBe('6');
    expect((states.unread_notices!.attributes!.notices as { id: string }[]).map((n) => n.id)).toEqual(['N5', 'N4', 'N3', 'N2', 'N1']);
    expect(states.newest_notice).toEqual({
      state: 'Stare',
      attributes: { id: 'R', content: '', created: '2026-11-19T08:00:00+01:00', start_date: null, end_date: null, read: true },
    });
  });

  it('cuts a long subject to a state and names a missing one; nothing at all is unknown', () => {
    const long = renderNotices(noticesView(notices([{ Id: 'L', Subject: 'x'.repeat(300), CreationDate: '2026-11-19 08:00:00' }])), 'pl');
    expect(long.newest_notice?.state).toBe(`${'x'.repeat(254)}…`);
    // Named in the family's language.
    const untitled = (language: 'pl' | 'en' | 'uk') => renderNotices(noticesView(notices([{ Id: 'E', Subject: '' }])), language).newest_notice!.state;
    expect([untitled('pl'), untitled('en'), untitled('uk')]).toEqual(['(bez tematu)', '(no topic)', '(без теми)']);
    expect(renderNotices(noticesView([]), 'pl')).toEqual({
      unread_notices: { state: '0', attributes: { notices: [] } },
      newest_notice: { state: null, attributes: {} },
    });
  });

  it('gives one event per announcement, newest first, with the text cut to 500 characters', () => {
    const events = noticeEvents(
      notices([
        { Id: 'A', Subject: 'Pierwsze', Content: 'y'.repeat(600), CreationDate: '2026-11-18 08:00:00' },
        { Id: 'B', Subject: 'Drugie', Content: 'krótko', StartDate: '2026-11-19' },
      ]),
    );
    expect(events).toEqual([
      { id: 'B', payload: { id: 'B', subject: 'Drugie', date: '2026-11-19', content: 'krótko' } },
      { id: 'A', payload: { id: 'A', subject: 'Pierwsze', date: '2026-11-18', content: `${'y'.repeat(499)}…` } },
    ]);
  });
});
