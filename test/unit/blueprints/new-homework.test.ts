// A new homework assignment (new_homework, interface 16.4): the child's homework event as the bridge fires
// it (docs/entities.md: subject, topic, text, teacher, assigned, due, attachments; a flood's count and
// entries), the notification rendered in each language as Home Assistant renders it.
import { describe, expect, it } from 'vitest';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { fired, LANGUAGES, passedIn, run } from '../../helpers/blueprint-run.js';

const HOMEWORK = {
  event_type: 'homework',
  subject: 'Język polski',
  topic: 'Wiersz na pamięć',
  text: 'Naucz się wiersza „Lokomotywa”.',
  teacher: 'Anna Nowak',
  assigned: '2026-11-18',
  due: '2026-11-25',
  attachments: [{ id: 'a1', name: 'lokomotywa.pdf' }],
};
const inputs = { homework_event: 'event.ania_homework' };

describe.skipIf(skipWithoutJinja())('a new homework assignment (new_homework)', () => {
  it('names the subject, the topic, the text and the day it is due, in each language', async () => {
    const set = await run('new_homework.yaml', inputs, fired('event.ania_homework', HOMEWORK));
    expect(passedIn(set)).toEqual(LANGUAGES);
    expect(set.pl.text).toBe('📚 Nowe zadanie domowe: Język polski\nWiersz na pamięć\nNaucz się wiersza „Lokomotywa”.\nna 25.11\nzałączniki: 1');
    expect(set.en.text).toBe('📚 New homework: Język polski\nWiersz na pamięć\nNaucz się wiersza „Lokomotywa”.\ndue 25.11\nattachments: 1');
    expect(set.uk.text).toBe('📚 Нове домашнє завдання: Język polski\nWiersz na pamięć\nNaucz się wiersza „Lokomotywa”.\nдо 25.11\nвкладення: 1');
  });

  it('shortens a long text, leaves out what the teacher left empty, counts a flood, and stays quiet on a change', async () => {
    const long = 'Zadanie '.repeat(40).trim();
    const bare = await run('new_homework.yaml', inputs, fired('event.ania_homework', { ...HOMEWORK, topic: null, text: long, attachments: [] }));
    expect(bare.en.text).toBe(`📚 New homework: Język polski\n${long.slice(0, 160)}…\ndue 25.11`);
    const flood = fired('event.ania_homework', {
      event_type: 'homework',
      count: 3,
      entries: [{ subject: 'Matematyka' }, { subject: 'Historia' }, { subject: 'Matematyka' }],
    });
    expect((await run('new_homework.yaml', inputs, flood)).pl.text).toBe('📚 Nowe zadania domowe: 3\nMatematyka, Historia');
    const moved = fired('event.ania_homework', { ...HOMEWORK, event_type: 'homework_changed', previous: { due: '2026-11-24' } });
    expect(passedIn(await run('new_homework.yaml', inputs, moved))).toEqual([]);
  });
});
