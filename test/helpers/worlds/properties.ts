// What must hold in every generated world (interface 18.1), each a named property over the doors of a run world
// (doors.ts): every door tells what the feature's typed value says, unknown is told as unknown, what the account
// cannot have is left out rather than "not known yet", no English word in a Polish or Ukrainian text, nothing throws.
// A property returns what it found wrong, each line naming the child, the door and what it read; an empty list holds.
import type { Language } from '../../../src/config/language.js';
import { ASK_TEXT } from '../../../src/i18n/ask-text.js';
import { BOARD_TEXT } from '../../../src/i18n/board-text.js';
import { timetableOf } from '../../../src/features/timetable/day.js';
import type { SchoolDay } from '../../../src/rules/schedule.js';
import type { GradesAsk } from '../../../src/features/grades/ask.js';
import type { AgendaAsk } from '../../../src/features/agenda/ask.js';
import type { TimetableAsk } from '../../../src/features/timetable/ask.js';
import { warsawDate } from '../../../src/util/time.js';
import { agendaEventsOf, type Answer, type ChildDoors, type WorldDoors } from './doors.js';

export interface Property {
  name: string;
  /** What it holds to, in a line. */
  says: string;
  check(doors: WorldDoors): string[];
}

/** Text as a regular expression matches it literally. */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PROPOSALS = new Set(['semester_proposal', 'final_proposal']);

/** The bridge's own words and values that must never reach a Polish or Ukrainian text (its enums, JavaScript's). */
export const ENGLISH =
  /\b(positive|negative|neutral|unknown|none|proposal|proposed|cancelled|substitution|shifted|room_change|semester_proposal|final_proposal|meeting|undefined|null|NaN|true|false)\b/;
export const BROKEN = /\bundefined\b|\bNaN\b|\[object Object\]/;

/** A child's answer of a tool asked with these arguments (beside the child's own). */
const answerOf = (c: ChildDoors, tool: string, args: Record<string, unknown> = {}): Answer | undefined =>
  c.answers.find((a) => a.tool === tool && JSON.stringify({ ...args, child: c.run.id }) === JSON.stringify(a.args));

/** Every text a person reads of a child: Assist's answers, the board's texts, the calendar feeds' summaries and descriptions. */
function texts(c: ChildDoors): { door: string; text: string }[] {
  const answers = [...c.answers, ...c.days.values()].map((a) => ({ door: `${a.tool} ${JSON.stringify(a.args)}`, text: a.text }));
  const board = c.board === undefined ? [] : [{ door: 'board', text: JSON.stringify(c.board) }];
  const calendars = Object.entries(c.calendars).flatMap(([name, events]) =>
    (events ?? []).map((e) => ({ door: `${name}.ics`, text: [e.summary, e.description ?? '', e.location ?? ''].join('\n') })),
  );
  return [...answers, ...board, ...calendars];
}

const language = (d: WorldDoors): Language => d.run.world.language;
const fortnightOf = (c: ChildDoors): readonly SchoolDay[] => (c.facts.get('timetable') as TimetableAsk | undefined)?.fortnight ?? [];

const nothingThrows: Property = {
  name: 'nothing throws',
  says: 'no pass logs a warning or an error, no door throws, every tool answers',
  check: (d) => [
    ...d.run.troubles.map((t) => `log: ${t.slice(0, 400)}`),
    ...d.thrown,
    ...d.children.flatMap((c) => [...c.answers, ...c.days.values()].filter((a) => a.isError).map((a) => `${c.run.id} ${a.tool}: ${a.text}`)),
  ],
};

const mqttTellsTheStates: Property = {
  name: 'MQTT tells the states',
  says: 'each state a pass told is retained on its topic as told, and every entity the discovery gives a state topic has one from the first pass',
  check: (d) => {
    const found: string[] = [];
    for (const c of d.children) {
      const declared = new Set(c.run.device?.entities.map((e) => e.key));
      for (const [key, state] of c.run.states) {
        // A state of an entity the child's device does not have (a kindergarten's lucky number) goes nowhere.
        if (!declared.has(key)) continue;
        const topic = `${d.run.base}/${c.run.id}/${key}`;
        const told = d.retained.get(topic);
        if (told !== (state.state ?? 'None')) found.push(`${topic}: retained ${JSON.stringify(told)}, the pass told ${JSON.stringify(state.state)}`);
        if (state.attributes !== undefined && d.retained.get(`${topic}/attributes`) !== JSON.stringify(state.attributes))
          found.push(`${topic}/attributes differ from what the pass told`);
      }
    }
    for (const [topic, payload] of d.retained) {
      if (!topic.endsWith('/config') || !topic.startsWith('homeassistant/')) continue;
      // A device's discovery names its entities' topics in `components`; an event's topic is never retained.
      const config = JSON.parse(payload) as Record<string, unknown>;
      const components = Object.values((config.components ?? config.cmps ?? {}) as Record<string, Record<string, unknown>>);
      for (const entity of [config, ...components]) {
        const state = (entity.state_topic ?? entity.stat_t) as string | undefined;
        if (entity.p !== 'event' && state !== undefined && !d.retained.has(state))
          found.push(`${topic}: no retained state on ${state} (${String(entity.p)})`);
      }
    }
    return found;
  },
};

const timetableEverywhere: Property = {
  name: 'the timetable the same on every door',
  says: 'get_day, the board, the lessons calendar feed and the plan changes ahead tell each lesson by the subject the timetable gives it (a substitution by its new one)',
  check: (d) => {
    const found: string[] = [];
    const lang = language(d);
    for (const c of d.children) {
      for (const day of fortnightOf(c)) {
        if (day.lessons === undefined) continue;
        const told = timetableOf(day, lang).attributes.lessons;
        const answer = c.days.get(day.date);
        for (const l of told)
          if (l.subject !== null && answer !== undefined && !answer.text.includes(l.subject))
            found.push(`${c.run.id} get_day ${day.date}: no ${l.subject}`);
        const held = (day.lessons ?? []).filter((l) => l.takesPlace);
        const events = c.calendars.lessons?.filter((e) => e.start.slice(0, 10) === day.date || e.start === day.date) ?? [];
        if (c.calendars.lessons !== undefined)
          for (const l of held)
            if (l.subject !== null && !events.some((e) => e.summary.includes(l.subject as string)))
              found.push(`${c.run.id} lessons.ics ${day.date}: no ${l.subject}`);
        if (c.board?.day?.date === day.date) {
          const board = c.board.day.lessons.map((l) => l.subject);
          const subjects = told.map((l) => l.subject);
          if (JSON.stringify(board) !== JSON.stringify(subjects))
            found.push(`${c.run.id} board ${day.date}: ${JSON.stringify(board)}, the timetable ${JSON.stringify(subjects)}`);
        }
      }
      const upcoming = answerOf(c, 'get_upcoming', { days: 31 })?.text ?? '';
      for (const day of fortnightOf(c))
        for (const ch of day.changes)
          if (
            ch.kind === 'substitution' &&
            ch.subject !== null &&
            ch.original_subject !== null &&
            ch.subject !== ch.original_subject &&
            day.date >= dateOf(d)
          ) {
            // A slot may have more than one change (a substitution, then the lesson moved away): one of its lines tells it.
            const lines = upcoming.split('\n').filter((l) => l.includes(`(${day.date}): ${ch.lesson_no}. `));
            if (lines.length > 0 && !lines.some((l) => l.includes(ch.subject as string)))
              found.push(`${c.run.id} get_upcoming: ${JSON.stringify(lines)} do not name the substitution's ${ch.subject}`);
          }
    }
    return found;
  },
};

const dateOf = (d: WorldDoors): string => warsawDate(d.run.now);

const proposalsAreProposals: Property = {
  name: 'a proposal is a proposal',
  says: 'a proposed term grade is never listed as an ordinary grade nor told as a new grade without its word',
  check: (d) => {
    const found: string[] = [];
    const lang = language(d);
    const periods = ASK_TEXT[lang].grades.periods as Record<string, string>;
    for (const c of d.children) {
      const grades = c.facts.get('grades') as GradesAsk | undefined;
      const proposals = (grades?.items ?? []).filter((i) => PROPOSALS.has(String(i.details.period)));
      for (const answer of c.answers.filter((a) => a.tool === 'get_grades'))
        for (const p of proposals) {
          const word = periods[String(p.details.period)] ?? '';
          const lines = answer.text.split('\n').filter(
            (l) =>
              p.date !== null &&
              l.includes(`(${p.date})`) &&
              p.subject !== null &&
              // The value whole: a proposal "2" is not the line of a "2+" (seed 263).
              new RegExp(`, ${escaped(p.subject)}, ${escaped(String(p.shown))}(?=[,\\s(]|$)`).test(l) &&
              (p.category === null || l.includes(p.category)),
          );
          // A line without the word may be an ordinary grade alike in day, subject, value and category (seed 204): only
          // more such lines than those grades list the proposal as one.
          const alike = (grades?.items ?? []).filter(
            (i) =>
              !PROPOSALS.has(String(i.details.period)) &&
              i.date === p.date &&
              i.subject === p.subject &&
              i.shown === p.shown &&
              (p.category === null || i.category === p.category),
          );
          const unworded = lines.filter((line) => !line.includes(word));
          for (const line of unworded.slice(alike.length))
            found.push(`${c.run.id} get_grades ${JSON.stringify(answer.args)}: "${line}" lists a ${p.details.period} as a grade`);
        }
      for (const event of c.run.events.filter((e) => e.kind === 'grade')) {
        const item = (grades?.items ?? []).find((i) => i.key === event.payload.id);
        if (item !== undefined && PROPOSALS.has(String(item.details.period)) && !JSON.stringify(event.payload).includes('proposal'))
          found.push(`${c.run.id} event grade ${item.key}: a ${item.details.period} told as a new grade (${JSON.stringify(event.payload)})`);
      }
    }
    return found;
  },
};

const agendaByItsKind: Property = {
  name: 'an agenda entry by its kind',
  says: "Assist and the agenda calendar feed tell each entry by the kind the agenda gives it, one it cannot classify by the school's category",
  check: (d) => {
    const found: string[] = [];
    const text = BOARD_TEXT[language(d)];
    for (const c of d.children) {
      const items = (c.facts.get('agenda') as AgendaAsk | undefined)?.items ?? [];
      const upcoming = answerOf(c, 'get_upcoming', { days: 31 })?.text ?? '';
      for (const item of items) {
        if (item.kind !== 'event' || item.category === null) continue;
        const meeting = text.agendaKinds.meeting;
        // Its line: one naming what the school wrote on its day (another entry may have the same words under another category).
        const category = item.category;
        const lines = upcoming
          .split('\n')
          .filter((l) => item.content !== null && item.content !== '' && l.includes(item.content) && l.includes(`(${item.date})`));
        // What a line tells of the entry follows its day (a one-line section's title stands before it: "trips, meetings and events").
        const told = (l: string) => l.slice(l.indexOf(`(${item.date})`));
        if (lines.length > 0 && !lines.some((l) => told(l).includes(category) && !told(l).includes(meeting)))
          found.push(`${c.run.id} get_upcoming: ${JSON.stringify(lines)} for a "${category}" entry`);
        const events = agendaEventsOf(c, item.key.replace(/^agenda:/, '')).filter((e) => e.start.slice(0, 10) === item.date);
        for (const e of events) if (e.summary.includes(meeting)) found.push(`${c.run.id} agenda.ics: "${e.summary}" for a "${item.category}" entry`);
      }
    }
    return found;
  },
};

const leftOutNotUnknown: Property = {
  name: 'left out, not unknown',
  says: 'what a kindergarten account or descriptive grades cannot have is left out, and the sent box is known after a refresh',
  check: (d) => {
    const found: string[] = [];
    const w = ASK_TEXT[language(d)];
    const unknown = w.common.unknown;
    for (const c of d.children) {
      // What a start's first pass leaves for the next (the school's files, the sent box) is not known yet until a refresh.
      const later = c.run.refreshed ? [] : [w.school.files, w.messages.sent];
      const unknownLine = (l: string) => l.includes(unknown) && !later.some((title) => l.startsWith(`${title}: `));
      const kind = c.run.served.world.kind;
      if (kind === 'kindergarten')
        for (const tool of ['get_attendance', 'get_behaviour', 'get_school'])
          for (const line of (answerOf(c, tool)?.text ?? '').split('\n').filter(unknownLine))
            found.push(`${c.run.id} (kindergarten) ${tool}: "${line}"`);
      if (kind === 'first-grader')
        for (const line of (answerOf(c, 'get_grades')?.text ?? '').split('\n').filter((l) => l.startsWith(w.grades.overall) && l.includes(unknown)))
          found.push(`${c.run.id} (descriptive grades only) get_grades: "${line}"`);
      // The sent box waits for the pass after a start's first (its requests are the start's dearest): a refresh reads it.
      if (c.run.refreshed)
        for (const line of (answerOf(c, 'get_messages')?.text ?? '').split('\n').filter((l) => l.startsWith(`${w.messages.sent}: ${unknown}`)))
          found.push(`${c.run.id} get_messages after a refresh: "${line}"`);
    }
    return found;
  },
};

const toldOnce: Property = {
  name: 'each told once',
  says: 'what is ahead tells each line of a list once (a test’s revision topics)',
  check: (d) =>
    d.children.flatMap((c) =>
      c.answers
        .filter((a) => a.tool === 'get_upcoming')
        .flatMap((a) => {
          const lines = a.text.split('\n').filter((l) => l.startsWith('- '));
          const twice = lines.filter((l, i) => lines.indexOf(l) !== i && lines.indexOf(l) === i - 1);
          return twice.map((l) => `${c.run.id} ${a.tool}: "${l}" twice in a row`);
        }),
    ),
};

const inTheFamilysLanguage: Property = {
  name: "in the family's language",
  says: 'no English word of the bridge in a Polish or Ukrainian text, no "undefined" or "NaN" anywhere, an average in the language’s form',
  check: (d) => {
    const found: string[] = [];
    const lang = language(d);
    for (const c of d.children) {
      for (const { door, text } of texts(c)) {
        const broken = BROKEN.exec(text);
        if (broken) found.push(`${c.run.id} ${door}: "${broken[0]}" in "${around(text, broken.index)}"`);
        const english = lang === 'en' ? null : ENGLISH.exec(text.replace(/"[a-z_]+":/g, ''));
        if (english && door !== 'board') found.push(`${c.run.id} ${door}: the English "${english[0]}" in "${around(text, english.index)}"`);
      }
      if (lang === 'en') continue;
      const g = ASK_TEXT[lang].grades;
      for (const a of c.answers) {
        const dotted = new RegExp(`(${g.weight}|${g.average}): \\d+\\.\\d`).exec(a.text);
        if (dotted) found.push(`${c.run.id} ${a.tool}: "${dotted[0]}" with a dot in ${lang}`);
      }
      const averages = (c.facts.get('grades') as GradesAsk | undefined)?.averaged?.attributes.subjects ?? [];
      const answer = answerOf(c, 'get_grades')?.text ?? '';
      for (const s of averages)
        if (
          typeof s.average === 'number' &&
          !Number.isInteger(s.average) &&
          answer.includes(`${ASK_TEXT[lang].grades.average}: ${String(s.average)}`)
        )
          found.push(`${c.run.id} get_grades: ${s.subject}'s average ${s.average} with a dot in ${lang}`);
    }
    return found;
  },
};

const around = (text: string, at: number): string => text.slice(Math.max(0, at - 60), at + 60).replaceAll('\n', ' ⏎ ');

const everyChildNamed: Property = {
  name: 'every child named',
  says: "the tools' descriptions name each of the family's children, from the listing right after the first passes on",
  check: (d) => {
    const names = d.run.snapshot
      .children()
      .map((c) => c.name?.split(' ')[0])
      .filter((n) => n !== undefined);
    const listings = { 'the first listing': d.run.firstListing, 'tools/list': d.toolDescriptions };
    return Object.entries(listings).flatMap(([which, listed]) => names.filter((n) => !listed.includes(n)).map((n) => `${which} names no ${n}`));
  },
};

export const PROPERTIES: readonly Property[] = [
  nothingThrows,
  mqttTellsTheStates,
  timetableEverywhere,
  proposalsAreProposals,
  agendaByItsKind,
  leftOutNotUnknown,
  toldOnce,
  inTheFamilysLanguage,
  everyChildNamed,
];

/** Every property's findings over a world's doors, by property name (only those that found something). */
export function findings(doors: WorldDoors, properties: readonly Property[] = PROPERTIES): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of properties) {
    const found = p.check(doors);
    if (found.length > 0) out[p.name] = found;
  }
  return out;
}
