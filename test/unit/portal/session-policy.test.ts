import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_POLICY, nextSessionAction, type SessionState } from '../../../src/portal/session.js';

const H = 3_600_000;
const M = 60_000;

describe('nextSessionAction (spec 5.3.5)', () => {
  const cases: [string, SessionState, number, string][] = [
    ['no session yet', {}, 0, 'login'],
    ['fresh session', { loggedInAt: 0 }, 1 * H, 'none'],
    ['just under 2 h', { loggedInAt: 0 }, 2 * H - 1, 'none'],
    ['2 h old: refresh', { loggedInAt: 0 }, 2 * H, 'refresh'],
    ['refreshed 1 h ago', { loggedInAt: 0, refreshedAt: 3 * H }, 4 * H, 'none'],
    ['refreshed 2 h ago', { loggedInAt: 0, refreshedAt: 3 * H }, 5 * H, 'refresh'],
    ['refresh failed 29 min ago', { loggedInAt: 0, refreshFailedAt: 3 * H }, 3 * H + 29 * M, 'none'],
    ['refresh failed 30 min ago', { loggedInAt: 0, refreshFailedAt: 3 * H }, 3 * H + 30 * M, 'refresh'],
    ['20 h lifetime reached', { loggedInAt: 0, refreshedAt: 19 * H }, 20 * H, 'login'],
  ];
  it.each(cases)('%s', (_name, state, now, expected) => {
    expect(nextSessionAction(state, now, DEFAULT_SESSION_POLICY)).toBe(expected);
  });
});
