// The bench's breakdown of a day with the change feed: the floor's shares (the change feed, the unread counter, the
// messaging sessions, a read and an acknowledgement per change), then every other request by resource and the
// planner's why, each with why it is still made; a read costs the requests its endpoints were asked.
import { describe, expect, it } from 'vitest';
import { beyondFloor } from '../../../src/bench/beyond-floor.js';
import { IDENTITY } from '../../../src/engine/resources/identity.js';
import type { ReadCount } from '../../../src/bench/simulate.js';

const read = (resource: string, why: string, n: number, start = false): ReadCount => ({ resource, why, start, n });

describe("the bench's breakdown of the change feed's day", () => {
  it('names the floor, then each request beyond it with the planner’s why and the reason it is still made', () => {
    const reads = [
      read('PushChanges', 'age: 07:00-21:00 5 min', 10),
      read('PushChanges', 'no copy', 1, true),
      read('messaging inbox/unreadMessagesCount', 'age: day 3 min', 20),
      read('Grades', 'no copy', 1, true),
      read('Grades', 'signal', 2),
      read('Grades', 'age: feed safety 8 h', 1),
      read('Grades', 'age: feed safety 8 h; night: at 06:00', 1),
      read('Realizations', 'age: lessons 2 h', 4),
      read(IDENTITY.name, 'no copy', 1, true),
      read(IDENTITY.name, 'new day', 1),
    ];
    const requests = {
      'GET PushChanges': 11,
      // One read of the counter met a dead session: asked again after the bootstrap.
      'GET messages:/api/inbox/unreadMessagesCount': 21,
      'GET messages:/bootstrap': 3,
      'GET messages:/wiadomosci3': 3,
      'DELETE PushChanges/<id>': 2,
      'GET Grades': 5,
      'GET Realizations': 4,
      'GET Me': 2,
      'GET Users/<id>': 2,
      'GET Classes': 2,
      'GET Schools': 2,
    };
    const asked = Object.values(requests).reduce((a, n) => a + n, 0);
    // Five login steps no read makes.
    const b = beyondFloor({ reads, requests, total: asked + 5 }, 1);
    expect(b.floor.map((s) => [s.what, s.perDay])).toEqual([
      ['the change feed (PushChanges)', 10],
      ['the unread counter', 21],
      ['messaging sessions', 6],
      ['a read per change (the change feed named it, or a new message moved the counter)', 2],
      ['an acknowledgement per pass with changes', 2],
    ]);
    expect(b.beyond.map((s) => [s.what, s.perDay])).toEqual([
      ["the start's first pass: every copy once", 1 + 1 + 4],
      ['Grades: age: feed safety 8 h', 2],
      ['Realizations: age: lessons 2 h', 4],
      [`${IDENTITY.name}: new day`, 4],
      ['logins, token refreshes, the change feed registration', 5],
    ]);
    expect(b.beyond.find((s) => s.what.startsWith('Grades'))?.why).toMatch(/^safety read: the change feed is a signal, not the truth/);
    expect(b.beyond.find((s) => s.what.startsWith('Realizations'))?.why).toMatch(/^the change feed does not name it/);
    // The running day's line sums them by kind.
    expect(b.beyond.map((s) => s.kind)).toEqual(['start', 'safety', 'unnamed', 'other', 'sessions']);
    const sum = [...b.floor, ...b.beyond].reduce((a, s) => a + s.perDay, 0);
    expect(sum).toBe(b.total);
    expect(b.total).toBe(asked + 5);
  });
});
