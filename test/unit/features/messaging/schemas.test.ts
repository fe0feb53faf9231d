// The messaging host's answers read leniently (spec 2.10).
import { describe, expect, it } from 'vitest';
import {
  groupReceiversResponse,
  messageListResponse,
  readSendAnswer,
  receiverTypesResponse,
  unreadCountsResponse,
} from '../../../../src/portal/schemas/messages.js';

describe('messaging schemas', () => {
  it('reads every counter and needs the inbox one', () => {
    expect(unreadCountsResponse.parse({ data: { inbox: 2, notes: '1', trash: 0, archiveInbox: 0, weird: 'x' } })).toEqual({
      inbox: 2,
      notes: 1,
      trash: 0,
      archiveInbox: 0,
    });
    expect(unreadCountsResponse.safeParse({ data: { notes: 1 } }).success).toBe(false);
  });

  it('reads a {data, total} list and a bare array alike', () => {
    const raw = {
      messageId: 881,
      senderName: '',
      senderFirstName: 'Anna',
      senderLastName: 'Nowak',
      topic: 'T',
      content: 'QQ==',
      sendDate: '2026-11-19 10:00:00',
      readDate: null,
      isAnyFileAttached: 1,
    };
    const wrapped = messageListResponse.parse({ data: [raw, 'junk', { topic: 'no id' }], total: 37 });
    expect(wrapped).toEqual({
      items: [{ id: '881', sender: 'Anna Nowak', topic: 'T', content: 'QQ==', sendDate: '2026-11-19 10:00:00', read: false, hasAttachments: true }],
      total: 37,
    });
    const bare = messageListResponse.parse([{ ...raw, senderName: 'Dziennik elektroniczny', readDate: '2026-11-19 11:00:00' }]);
    expect(bare.total).toBe(1);
    expect(bare.items[0]).toMatchObject({ sender: 'Dziennik elektroniczny', read: true });
    expect(messageListResponse.safeParse({ status: 'error' }).success).toBe(false);
  });

  it('reads receiver types and group receivers', () => {
    expect(
      receiverTypesResponse.parse({ data: { defaultGroup: 'teachers', list: [{ id: 'tutors', name: 'Wychowawcy' }, { name: 'bez id' }] } }),
    ).toEqual([{ id: 'tutors', name: 'Wychowawcy' }]);
    expect(groupReceiversResponse.parse({ receivers: [{ accountId: 4417203, label: 'Nowak Anna', userId: '1' }, { label: 'no id' }] })).toEqual([
      { accountId: '4417203', label: 'Nowak Anna' },
    ]);
    expect(groupReceiversResponse.parse({ receivers: [] })).toEqual([]);
  });

  it('tells a clean send answer from one that reports errors', () => {
    expect(readSendAnswer({ data: { messageId: 991, status: 'sent' } })).toEqual({ messageId: '991' });
    expect(readSendAnswer(undefined)).toEqual({});
    expect(readSendAnswer({ data: { status: 'sent' } })).toEqual({});
    expect(readSendAnswer({ status: 'error', errors: ['Błąd'] }).errors).toBe('Błąd');
    expect(readSendAnswer({ data: { messageId: 1, status: 'failed' } }).errors).toBe('status failed');
    expect(readSendAnswer({ errors: { topic: 'pusty' } }).errors).toContain('pusty');
    expect(readSendAnswer({ errors: [] })).toEqual({});
  });
});
