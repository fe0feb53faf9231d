// The tools as they run (interface 17.1): send_message resolves its recipient to a person before a preview and a code
// exist (an unknown one is refused with whom the account may write to, and no code is made), names the teacher in the
// preview and sends once; get_day reaches any day the bridge holds, names a day off, and says until when it knows a day
// past them; an answer past 24,000 characters ends with how to ask for less (open_message's too, and one over-long line
// is cut, never the answer emptied); a refusal quotes at most 40 characters of a 100 KB argument.
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../../src/outputs/mcp/server.js';
import { ANSWER_MAX_CHARS } from '../../../../src/outputs/mcp/answers.js';
import { silentLogger } from '../../../../src/util/log.js';
import { knownNames } from '../../../../src/util/redact.js';
import { fortnightOf, timetableFacts } from '../../../helpers/mcp-tools.js';
import { MessageNotSentError } from '../../../../src/features/messaging/errors.js';
import type { ChildView } from '../../../../src/outputs/web/types.js';
import type { Language } from '../../../../src/config/language.js';
import type { WriteAsk } from '../../../../src/features/message-write/ask.js';
import type { TimetableAsk } from '../../../../src/features/timetable/ask.js';
import type { NoticesAsk } from '../../../../src/features/notices/ask.js';
import type { GradesAsk } from '../../../../src/features/grades/ask.js';
import type { OpenedAsk } from '../../../../src/features/opened-message/ask.js';

const NOW = Date.parse('2026-11-18T09:00:00+01:00');
const child: ChildView = { id: 'ania', name: 'Ania Kowalska', model: null, online: true, states: new Map(), changedAt: NOW };
const WRITE: WriteAsk = {
  targets: [
    { option: 'Matematyka – Piotr Wiśniewski', accountId: '11', person: 'Piotr Wiśniewski' },
    { option: 'Język polski – Anna Nowak', accountId: '12', person: 'Anna Nowak' },
    { option: 'Wychowawca – Anna Nowak', accountId: '12', person: 'Anna Nowak' },
  ],
};

function bridge(facts: Record<string, unknown>, language: Language = 'pl', refuse?: Error) {
  const commands: { command: string; payload: string }[] = [];
  const server = new McpServer({
    source: { language, now: () => NOW, children: () => [child], facts: () => new Map(Object.entries(facts)) },
    actions: {
      command: (_child, command, payload) => {
        commands.push({ command, payload });
        return refuse ? Promise.reject(refuse) : Promise.resolve({});
      },
      writes: () => true,
    },
    version: '1.0.0',
    clock: { now: () => NOW },
    log: silentLogger(),
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const reply = (await server.answer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })) as {
      result: { content: { text: string }[]; isError?: boolean };
    };
    return { text: reply.result.content[0]?.text ?? '', isError: reply.result.isError === true };
  };
  return { call, commands };
}

const code = (text: string): string | undefined => /confirm "([^"]+)"/.exec(text)?.[1];

describe('send_message', () => {
  it('refuses a recipient the account cannot write to before any preview: the list of those it can, no code, nothing sent', async () => {
    const { call, commands } = bridge({ 'message-write': WRITE });
    const answer = await call('send_message', { to: 'pan od matematyki', subject: 'Pytanie', text: 'Dzień dobry' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(
      '"pan od matematyki" nie jest wśród osób, do których może pisać to konto: Matematyka – Piotr Wiśniewski, Język polski – Anna Nowak, Wychowawca – Anna Nowak. Niczego nie przygotowano; zapytaj rodzica, o kogo chodzi.',
    );
    expect(code(answer.text)).toBeUndefined();
    expect(commands).toEqual([]);
  });

  it('names the person in the preview (class_tutor: the tutor) and sends once, to that recipient, after the confirmation', async () => {
    const { call, commands } = bridge({ 'message-write': WRITE });
    const preview = await call('send_message', { to: 'class_tutor', subject: 'Nieobecność', text: 'Ania jutro nie przyjdzie.' });
    expect(preview.isError).toBe(false);
    expect(preview.text).toContain('do: Anna Nowak, temat "Nieobecność"');
    expect(preview.text).not.toContain('class_tutor');
    expect(commands).toEqual([]);
    const sent = await call('send_message', { confirm: code(preview.text) });
    expect(sent).toEqual({ text: 'Wysłano do: Anna Nowak: "Nieobecność".', isError: false });
    expect(commands).toEqual([
      { command: 'write', payload: JSON.stringify({ to: 'Wychowawca – Anna Nowak', topic: 'Nieobecność', text: 'Ania jutro nie przyjdzie.' }) },
    ]);
    expect((await call('send_message', { confirm: code(preview.text) })).isError).toBe(true);
    expect(commands).toHaveLength(1);
    const teacher = await call('send_message', { to: 'piotr wisniewski', subject: 'Pytanie', text: 'Dzień dobry' });
    expect(teacher.text).toContain('do: Piotr Wiśniewski,');
  });

  it("makes no code while the recipient list is not known, and says a refusal of the guard in the family's words", async () => {
    const waiting = bridge({}, 'en');
    const early = await waiting.call('send_message', { to: 'class_tutor', subject: 'A', text: 'B' });
    expect(early).toMatchObject({ isError: true });
    expect(early.text).toMatch(/has not read yet whom Ania's account may write to: nothing was prepared/);
    expect(code(early.text)).toBeUndefined();

    const limited = bridge({ 'message-write': WRITE }, 'uk', new MessageNotSentError(false, 'daily_limit', 'not sent: daily limit reached'));
    const preview = await limited.call('send_message', { to: 'Anna Nowak', subject: 'A', text: 'B' });
    // "Anna Nowak" is one person on two options: resolved, not ambiguous.
    expect(preview.text).toContain('до: Anna Nowak');
    const refused = await limited.call('send_message', { confirm: code(preview.text) });
    expect(refused.text).toBe('Не надіслано: вичерпано денний ліміт повідомлень цієї дитини (messages_per_day); можна надіслати завтра.');
    expect(refused.text).not.toMatch(/not sent|daily limit/);
  });
});

/** A fortnight from Monday 16.11: school days without lessons read (an empty plan) but Friday 20.11 off, weekends empty. */
function fortnight(): TimetableAsk {
  const free = { name: 'Dzień dyrektorski', scope: 'school' as const, from: '2026-11-20', to: '2026-11-20', lessons: null };
  return timetableFacts({
    fortnight: fortnightOf((date) => ({ freeDay: date === free.from ? free : undefined })),
    freeDays: [free],
    // A plan no different from the standing one.
    standing: [],
  });
}

describe('get_day', () => {
  it('answers several days from a weekday, names a day off, and says until when it knows a day past the plan', async () => {
    const { call } = bridge({ timetable: fortnight() });
    const week = await call('get_day', { date: 'czwartek', days: 2 });
    // (The child's card says it waits for the first reading: the snapshot has no state in this test.)
    expect(week.text).toMatch(/^Ania \(ania\) — Jutro, czwartek 19\.11 \(2026-11-19\)\n.*\nLekcje: Brak lekcji\./);
    expect(week.text).toMatch(
      /\n\nAnia \(ania\) — Piątek 20\.11 \(2026-11-20\)\n.*\nLekcje: Dzień dyrektorski\nInaczej niż w stałym planie: brak\nDni wolne: Dzień dyrektorski/,
    );
    const later = await call('get_day', { date: '2026-12-07' });
    expect(later.text).toContain('Lekcje: Mostek ma lekcje od 2026-11-16 do 2026-11-29, nie na 2026-12-07');
    expect((await call('get_day', { date: 'someday' })).isError).toBe(true);
  });
});

/** The message opened last, as the feature keeps it for Assist, with `text` as its body. */
const opened = (text: string): OpenedAsk => ({
  record: {
    message_id: '77',
    mailbox: 'inbox',
    topic: 'Regulamin',
    sender: 'Anna Nowak',
    sender_id: '12',
    date: '2026-11-17T10:00:00',
    text,
    truncated: false,
    can_reply: true,
    withdrawn: false,
    attachments: [],
  },
});

describe('an answer', () => {
  it('past 24,000 characters is cut at a line and ends with how to ask for less', async () => {
    const notices: NoticesAsk = {
      notices: Array.from({ length: 40 }, (_, i) => ({
        id: String(i),
        subject: `Ogłoszenie ${i + 1}`,
        content: 'Treść ogłoszenia. '.repeat(110),
        day: '2026-11-17',
        created: null,
        startDate: null,
        endDate: null,
        read: false,
      })),
    };
    const { call } = bridge({ notices });
    const answer = await call('get_messages', {});
    expect(answer.text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
    expect(answer.text.endsWith('\nTu odpowiedź jest ucięta: o resztę zapytaj o mniej dni, jedno dziecko albo jeden przedmiot.')).toBe(true);
  });

  const CUT_LINE = '\nTu odpowiedź jest ucięta: o resztę zapytaj o mniej dni, jedno dziecko albo jeden przedmiot.';

  it("of open_message past 24,000 characters is cut as every tool's, its beginning kept", async () => {
    const text = Array.from({ length: 1500 }, (_, i) => `Punkt ${i + 1}. Uczeń przestrzega zasad.`).join('\n');
    expect(text.length).toBeGreaterThan(40_000);
    const { call } = bridge({ 'opened-message': opened(text) });
    const answer = await call('open_message', { id: '77' });
    expect(answer.isError).toBe(false);
    expect(answer.text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
    expect(answer.text).toContain('Punkt 1. Uczeń przestrzega zasad.\nPunkt 2.');
    // Cut at a line's end: the last point told is told whole.
    expect(answer.text).toMatch(/\nPunkt \d+\. Uczeń przestrzega zasad\.\nTu odpowiedź jest ucięta: [^\n]+$/);
  });

  it('whose one line is longer than the cap keeps that line, cut, and never ends empty', async () => {
    const { call } = bridge({ 'opened-message': opened('Zasady '.repeat(7_000)) });
    const answer = await call('open_message', { id: '77' });
    expect(answer.text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
    expect(answer.text).toMatch(/^Wiadomość id 77/);
    expect(answer.text.endsWith(`…${CUT_LINE}`)).toBe(true);
    // The message's text fills the answer: not its heading alone.
    expect(answer.text.split('Zasady').length - 1).toBeGreaterThan(3_000);
  });

  it('of get_messages with one announcement on a line past the cap keeps the list, the long line cut', async () => {
    const notices: NoticesAsk = {
      notices: [
        {
          id: '1',
          subject: 'Zebranie',
          content: 'Zebranie w czwartek.',
          day: '2026-11-17',
          created: null,
          startDate: null,
          endDate: null,
          read: false,
        },
        {
          id: '2',
          subject: 'Regulamin '.repeat(3_000),
          content: 'Tekst.',
          day: '2026-11-16',
          created: null,
          startDate: null,
          endDate: null,
          read: false,
        },
      ],
    };
    const { call } = bridge({ notices });
    const answer = await call('get_messages', {});
    expect(answer.text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
    expect(answer.text).toContain('"Zebranie": Zebranie w czwartek.');
    expect(answer.text).toContain('"Regulamin Regulamin');
    expect(answer.text.endsWith(`…${CUT_LINE}`)).toBe(true);
  });
});

describe('an answer holding a secret the bridge holds', () => {
  it('has it masked, as written and percent-encoded (the school quoting back what it was sent)', async () => {
    const password = `Hasło/${Date.now()}-kot "zielony"`;
    knownNames.secret(password);
    const text = `Twoje hasło to ${password}, w adresie: ${encodeURIComponent(password)}.`;
    const { call } = bridge({ 'opened-message': opened(text) });
    const answer = await call('open_message', { id: '77' });
    expect(answer.text).toContain('Twoje hasło to …, w adresie: ….');
    expect(answer.text).not.toContain(password.slice(0, 12));
  });
});

describe('a refusal', () => {
  it('quotes at most 40 characters of a 100 KB child, subject or recipient, and sends nothing', async () => {
    const grades: GradesAsk = { items: [], terms: [], averaged: null, semester: 1, absent: false };
    const { call, commands } = bridge({ 'message-write': WRITE, grades });
    const long = 'Zosia'.repeat(20_000);
    const calls: [string, Record<string, unknown>][] = [
      ['get_day', { child: long }],
      ['get_grades', { subject: long }],
      ['send_message', { to: ` ${long}\n`, subject: 'Pytanie', text: 'Dzień dobry' }],
    ];
    for (const [name, args] of calls) {
      const answer = await call(name, args);
      expect(answer.isError, name).toBe(true);
      // The longest run of the argument's letters the refusal quotes.
      const quoted = Math.max(0, ...[...answer.text.matchAll(/Zosia[Zosia]*/g)].map((m) => m[0].length));
      expect(quoted, `${name}: ${answer.text.slice(0, 120)}`).toBeGreaterThan(0);
      expect(quoted, name).toBeLessThanOrEqual(40);
    }
    expect(commands).toEqual([]);
  });
});
