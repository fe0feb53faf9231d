// The pure rules behind behaviour, school_files and sent_message: what a parent reads from the portal's records.
import { describe, expect, it } from 'vitest';
import { behaviour } from '../../../src/rules/behaviour.js';
import { schoolFiles } from '../../../src/rules/school-files.js';
import { newestSent, readEvents, watched } from '../../../src/rules/sent-messages.js';
import { makeNames } from '../../../src/rules/names.js';
import type { BehaviourGrade } from '../../../src/portal/schemas/behaviour.js';

const grade = (g: Partial<BehaviourGrade> & { Id: string }): BehaviourGrade => ({ Comments: [], ...g }) as BehaviourGrade;
const categories = [
  { Id: '1', Name: 'Ocena zachowania – śródroczna', Points: undefined },
  { Id: '2', Name: 'Ocena zachowania – roczna', Points: undefined },
  { Id: '3', Name: 'Propozycja oceny zachowania – śródroczna', Points: undefined },
];
const base = { categories, names: makeNames(), endFirstSemester: '2027-01-29' };

describe('behaviour', () => {
  it('reads a classic grade by its type in words; "śródroczna" is the semester, not the year', () => {
    const value = behaviour({
      ...base,
      today: '2027-01-30',
      grades: [grade({ Id: '1', BehaviourGrade: '2', Category: '1', Semester: 1, AddDate: '2027-01-27 10:00:00' })],
    });
    expect(value.newest).toMatchObject({ grade: 'bardzo dobre', short: 'bdb', period: 'semester', proposal: false });
    expect(value.points).toBeNull();
  });

  it('marks a proposal and keeps the newest first; the final grade apart', () => {
    const value = behaviour({
      ...base,
      today: '2027-01-20',
      grades: [
        grade({ Id: '1', BehaviourGrade: '3', Category: '3', Semester: 1, AddDate: '2027-01-10 10:00:00' }),
        grade({ Id: '2', BehaviourGrade: '1', Category: '2', AddDate: '2026-06-20 10:00:00' }),
      ],
    });
    expect(value.newest).toMatchObject({ grade: 'dobre', proposal: true, period: 'semester' });
    expect(value.semesterProposal?.grade).toBe('dobre');
    expect(value.semester).toBeNull();
    expect(value.final).toMatchObject({ grade: 'wzorowe', period: 'final', proposal: false });
  });

  it("sums a points school's points of the current semester only", () => {
    const value = behaviour({
      ...base,
      today: '2026-11-23',
      grades: [
        grade({ Id: '1', Value: 10, ShortName: '+10', Semester: 1, AddDate: '2026-10-01 10:00:00' }),
        grade({ Id: '2', Value: -5, ShortName: '-5', Semester: 1, AddDate: '2026-11-01 10:00:00' }),
        grade({ Id: '3', Value: 50, ShortName: '+50', Semester: 2, AddDate: '2026-03-01 10:00:00' }),
      ],
    });
    expect(value.points).toBe(5);
    expect(value.newest).toBeNull();
  });
});

describe('school files', () => {
  it('lists newest first by the date added', () => {
    const items = schoolFiles([
      { id: '1', displayName: 'Statut.pdf', addedOnDate: '2026-09-04 09:12:00', downloadUrl: '/pliki_szkoly/pobierz/1' },
      { id: '2', displayName: 'Kalendarz.pdf', addedOnDate: '2026-09-06 14:40:10', downloadUrl: '/pliki_szkoly/pobierz/2' },
    ] as never);
    expect(items.map((f) => [f.name, f.date])).toEqual([
      ['Kalendarz.pdf', '2026-09-06'],
      ['Statut.pdf', '2026-09-04'],
    ]);
  });
});

describe('sent messages', () => {
  const list = [
    { id: '20', topic: 'Nowa', to: 'Nowak Anna', sendDate: '2026-11-23 08:00:00' },
    { id: '10', topic: 'Stara', to: 'Nowak Anna', sendDate: '2026-11-01 08:00:00' },
  ];

  it('watches the unread messages of the last 7 days, and the newest until it was opened once', () => {
    expect(watched({ list, details: new Map() }, '2026-11-23')).toEqual(['20']);
    const read = new Map([
      ['20', { topic: 'Nowa', sendDate: undefined, receivers: [{ name: 'Anna Nowak', read: true, readAt: '2026-11-23 09:00:00' }] }],
    ]);
    expect(watched({ list, details: read }, '2026-11-23')).toEqual([]);
    const unread = new Map([['20', { topic: 'Nowa', sendDate: undefined, receivers: [{ name: 'Anna Nowak', read: false, readAt: undefined }] }]]);
    expect(watched({ list, details: unread }, '2026-11-23')).toEqual(['20']);
    expect(watched({ list, details: unread }, '2026-12-01')).toEqual([]);
  });

  it('says who read it and when; a flag without a time takes the moment the bridge saw it', () => {
    const details = new Map([
      [
        '20',
        {
          topic: 'Nowa',
          sendDate: undefined,
          receivers: [
            { name: 'Anna Nowak', read: true, readAt: '2026-11-23 09:00:00' },
            { name: 'Piotr Wiśniewski', read: true, readAt: undefined },
          ],
        },
      ],
    ]);
    const seenRead = new Map([['20:Piotr Wiśniewski', '2026-11-23T10:20:00+01:00']]);
    const sent = newestSent({ list, details, seenRead });
    expect(sent).toMatchObject({ topic: 'Nowa', readByAll: true, date: '2026-11-23T08:00:00+01:00' });
    expect(sent?.receivers.map((r) => r.readAt)).toEqual(['2026-11-23T09:00:00+01:00', '2026-11-23T10:20:00+01:00']);
    expect(readEvents({ list, details, seenRead }).map((e) => e.id)).toEqual(['read:20:Anna Nowak', 'read:20:Piotr Wiśniewski']);
  });
});
