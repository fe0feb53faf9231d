// What must be true of the school in every generated world (interface 19.1): each door held against the reference
// model (test/helpers/reference/), worked out from the portal's own records and the spec, never from the features'
// typed values. A door that faithfully tells a wrong value fails here. Each property returns what it found untrue, a
// line naming the child, the door and what it read against what the records say; an empty list holds.
import { ASK_TEXT } from '../../../src/i18n/ask-text.js';
import { UNTITLED } from '../../../src/i18n/school-words.js';
import { addDays, mondayOf, warsaw, warsawInstant } from '../reference/dates.js';
import { averagesOf, gradesOf, missedOf, unreadOf, type Grade } from '../reference/marks.js';
import type { Records } from '../reference/portal.js';
import { agendaOf, classOf, differences, lessonsOn, luckyOf, movedAway, namesOf, ownLessonsOn, planOn, testsAhead } from '../reference/school.js';
import { agendaEventsOf, type ChildDoors, type WorldDoors } from './doors.js';
import type { Property } from './properties.js';
import { BOARD_TEXT } from '../../../src/i18n/board-text.js';
import { CHANGE_WORDS, TIMETABLE_WORDS } from '../../../src/i18n/lesson-words.js';
import type { Language } from '../../../src/config/language.js';
import { agendaTold, announcementOf, fortnightOf, gradeOf, slotsOn, tellingsOf, type Telling } from '../reference/slots.js';

/** The children the portal's records were read of (a kindergarten's are not), with their records. */
const recorded = (d: WorldDoors): { c: ChildDoors; records: Records }[] =>
  d.children.flatMap((c) => (c.run.records === undefined ? [] : [{ c, records: c.run.records }]));

/** A retained state of the child, and its attributes parsed; undefined where the child's device has no such entity. */
function retained(d: WorldDoors, c: ChildDoors, key: string): { state: string | undefined; attributes: Record<string, unknown> } | undefined {
  if (!c.run.device?.entities.some((e) => e.key === key)) return undefined;
  const topic = `${d.run.base}/${c.run.id}/${key}`;
  const attributes = d.retained.get(`${topic}/attributes`);
  return { state: d.retained.get(topic), attributes: attributes === undefined ? {} : (JSON.parse(attributes) as Record<string, unknown>) };
}

/**
 * The lines of an answer that tell this grade: its day, its subject and its value whole, so that a "1" is not read in
 * the "17/20 pkt" or a "4" in the "4+" told of the same day and subject (get_grades: `day (date), subject, value, ...`).
 */
function linesTelling(text: string, g: Grade): string[] {
  const told = `(${g.date}), ${g.subject}, ${g.value}`;
  return text.split('\n').filter((line) => {
    const at = line.indexOf(told);
    return at >= 0 && [undefined, ',', ' '].includes(line[at + told.length]);
  });
}

const classAndLucky: Property = {
  name: 'the class and the lucky number as the school has them',
  says: "MQTT's school state is the class Classes names, lucky_number the number LuckyNumbers gives for today or a day to come (None for none)",
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const found: string[] = [];
      const school = retained(d, c, 'school');
      const klass = classOf(records);
      if (school !== undefined && klass !== null && school.state !== klass) found.push(`${c.run.id} school: ${school.state}, the class is ${klass}`);
      const lucky = retained(d, c, 'lucky_number');
      const drawn = luckyOf(records);
      const told = drawn === null ? 'None' : String(drawn.number);
      if (lucky !== undefined && lucky.state !== told)
        found.push(`${c.run.id} lucky_number: ${lucky.state}, LuckyNumbers says ${told} (${JSON.stringify(records.lists.LuckyNumbers)})`);
      if (lucky !== undefined && drawn !== null && lucky.attributes.day !== drawn.day)
        found.push(`${c.run.id} lucky_number: day ${String(lucky.attributes.day)}, LuckyNumbers says ${drawn.day}`);
      return found;
    }),
};

const standingPlan: Property = {
  name: 'the standing plan differs where the plan and the day differ',
  says: "every difference timetable_today tells of the standing plan is one the day's lessons have against the child's own entries of the plan (a split class's other group is no difference)",
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const truth = differences(records);
      const told = retained(d, c, 'timetable_today')?.attributes.standing_differences;
      return (Array.isArray(told) ? (told as { date: string; no: number | null; kind: string; words?: string }[]) : []).flatMap((t) => {
        if (records.days[t.date] === undefined) return [];
        const slot = truth.get(`${t.date} ${t.no}`);
        if (slot?.open || slot?.kinds.has(t.kind as never)) return [];
        const held = JSON.stringify(lessonsOn(records, t.date)?.filter((l) => t.no === null || l.no === t.no));
        return [
          `${c.run.id} standing_differences: ${t.date} ${t.no} ${t.kind} ("${t.words ?? ''}"), the records: ${JSON.stringify(slot ? [...slot.kinds] : [])}, the day: ${held}`,
        ];
      });
    }),
};

const agendaEnds: Property = {
  name: 'an agenda entry starts and ends when the school says',
  says: 'the agenda calendar feed starts each entry at its TimeFrom and ends it at its TimeTo',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) =>
      agendaOf(records).flatMap((entry) => {
        if (entry.start === null || entry.end === null || entry.end <= entry.start) return [];
        const events = agendaEventsOf(c, entry.id).filter((e) => e.start.slice(0, 10) <= entry.date);
        const start = warsawInstant(entry.date, entry.start);
        const end = warsawInstant(entry.date, entry.end);
        return events
          .filter((e) => e.start !== start || e.end !== end)
          .map(
            (e) => `${c.run.id} agenda.ics "${e.summary}": ${e.start} – ${e.end}, HomeWorks ${entry.id}: ${entry.date} ${entry.start}–${entry.end}`,
          );
      }),
    ),
};

const gradesCount: Property = {
  name: 'a grade counts as the spec says',
  says: "each subject's average on MQTT is the weighted mean of its grades that count; a mark that does not count says so wherever its weight is told",
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const found: string[] = [];
      const truth = averagesOf(records);
      const told = retained(d, c, 'average')?.attributes.subjects;
      for (const s of Array.isArray(told) ? (told as { subject: string; average: number | null }[]) : []) {
        const average = truth.get(s.subject);
        if (average !== undefined && (s.average === null || Math.abs(s.average - average) > 0.006))
          found.push(`${c.run.id} average ${s.subject}: ${s.average}, its grades that count make ${average.toFixed(3)}`);
      }
      const w = ASK_TEXT[d.run.world.language].grades;
      const answers = c.answers.filter((a) => a.tool === 'get_grades');
      // Marks of one day, subject and value are told by lines alike, those that count among them: no more of those
      // lines may tell a weight with no word that it does not count than there are such marks that count.
      const marks = gradesOf(records).filter((g) => g.subject !== null);
      for (const g of marks.filter((g) => !g.counts)) {
        const alike = marks.filter((o) => o.date === g.date && o.subject === g.subject && o.value === g.value);
        if (alike.find((o) => !o.counts) !== g) continue;
        const counting = alike.filter((o) => o.counts).length;
        for (const a of answers) {
          const bare = linesTelling(a.text, g).filter((l) => l.includes(`${w.weight}: `) && !l.includes(w.notCounted));
          for (const line of bare.slice(counting)) found.push(`${c.run.id} get_grades: "${line}" tells a weight of a mark that does not count`);
        }
      }
      return found;
    }),
};

const missedLessons: Property = {
  name: 'the lessons missed on a day are told',
  says: 'get_lesson_topics of a day names each lesson the attendance marks missed that day, however long ago',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const title = ASK_TEXT[d.run.world.language].lessonsHeld.catchUp;
      return [...c.topicsOn].flatMap(([date, answer]) => {
        const told = answer.text.slice(Math.max(0, answer.text.indexOf(title)));
        return missedOf(records)
          .filter((m) => m.date === date && !told.includes(`(${date}) ${m.no}.`))
          .map(
            (m) =>
              `${c.run.id} get_lesson_topics {date: ${date}} (today ${records.today}): lesson ${m.no} missed, not told ("${told.slice(0, 200)}")`,
          );
      });
    }),
};

const missedOverAWindow: Property = {
  name: 'the lessons missed over a window are told',
  says: 'get_lesson_topics of the last 60 days names each lesson the attendance marks missed within them',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const title = ASK_TEXT[d.run.world.language].lessonsHeld.catchUp;
      const answer = c.answers.find((a) => a.tool === 'get_lesson_topics' && a.args.days === 60)?.text ?? '';
      const told = answer.slice(Math.max(0, answer.indexOf(title)));
      const since = addDays(records.today, -59);
      return missedOf(records)
        .filter((m) => m.date >= since && m.date <= records.today && !told.includes(`(${m.date}) ${m.no}.`))
        .map((m) => `${c.run.id} get_lesson_topics {days: 60} (today ${records.today}): lesson ${m.no} of ${m.date} missed, not told`);
    }),
};

const movedWhereItLeaves: Property = {
  name: 'a moved lesson is told where it leaves',
  says: 'get_upcoming tells a lesson moved to another slot, on the day it leaves, at the number of the slot it leaves',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const upcoming = c.answers.find((a) => a.tool === 'get_upcoming')?.text ?? '';
      const last = addDays(records.today, 7);
      return movedAway(records)
        .filter((m) => m.date >= records.today && m.date <= last && m.subject !== null)
        .filter((m) => !upcoming.split('\n').some((l) => l.includes(`(${m.date}): ${m.no}. `) && l.includes(m.subject as string)))
        .map((m) => `${c.run.id} get_upcoming: no line of ${m.date} lesson ${m.no} (${m.subject}), moved away`);
    }),
};

const unreadMessages: Property = {
  name: 'every unread message is told',
  says: 'unread_messages counts the unread of each mailbox, and the board lists the newest unread of the inbox, one without a subject as such',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const found: string[] = [];
      const unread = unreadOf(records);
      const told = retained(d, c, 'unread_messages');
      const inbox = unread.filter((m) => m.mailbox === 'inbox');
      if (told?.state !== undefined && told.state !== 'None' && told.state !== String(inbox.length))
        found.push(`${c.run.id} unread_messages: ${told.state}, the inbox has ${inbox.length} unread`);
      const lang = d.run.world.language;
      const untitled = [UNTITLED[lang], ASK_TEXT[lang].messages.untitled];
      const board = c.board?.messages?.unread.map((m) => m.topic) ?? [];
      const week = addDays(records.today, -7);
      const newest = [...inbox].sort((a, b) => b.sent.localeCompare(a.sent)).slice(0, Math.min(board.length, 10));
      for (const m of newest.filter((m) => m.sent.slice(0, 10) >= week))
        if (!board.includes(m.topic) && !(m.topic.trim() === '' && untitled.some((u) => board.includes(u))))
          found.push(`${c.run.id} board: the unread "${m.topic}" of ${m.sent} not listed (${JSON.stringify(board)})`);
      return found;
    }),
};

const dayLessons: Property = {
  name: "a day's lessons as the timetable holds them",
  says:
    "get_day of a day tells each lesson the child's timetable holds that day for the child's own group, by its number " +
    'and subject, and never as cancelled (a class free day of another class frees none of them)',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const names = namesOf(records);
      const cancelled = CHANGE_WORDS[d.run.world.language].cancelled;
      return [...c.days].flatMap(([date, answer]) =>
        (ownLessonsOn(records, date) ?? [])
          .filter((l) => !l.cancelled && names.subject(l.subject) !== null)
          .filter(
            (l) =>
              !answer.text
                .split('\n')
                .some((line) => line.includes(`${l.no}. `) && line.includes(names.subject(l.subject) as string) && !line.includes(cancelled)),
          )
          .map((l) => `${c.run.id} get_day ${date}: no lesson ${l.no} (${names.subject(l.subject)}) held in "${answer.text.slice(0, 300)}"`),
      );
    }),
};

/** A board day ("pon. 07.06", "dziś", "jutro") as the date of the fortnight it names; undefined for none. */
function boardDate(day: string, records: Records, lang: Language): string | undefined {
  const text = BOARD_TEXT[lang];
  if (day === text.today.toLowerCase()) return records.today;
  if (day === text.tomorrow.toLowerCase()) return addDays(records.today, 1);
  return fortnightOf(records).find((date) => day.endsWith(` ${date.slice(8, 10)}.${date.slice(5, 7)}`));
}

/** A difference in the family's words (i18n/lesson-words.ts, the words every screen prints). */
function standingSaid(t: Telling, lang: Language): string {
  const w = TIMETABLE_WORDS[lang].standing;
  return t.kind === 'missing' ? w.missing(t.was) : t.kind === 'added' ? w.added(t.now) : t.kind === 'no_lessons' ? '' : w[t.kind](t.was, t.now);
}

/** A line of a standing-plan box (the board's, the dashboard's): its day, its slot's number (none: the whole day) and its words. */
export interface StandingLine {
  date: string | undefined;
  no: number | null;
  words: string;
}

/**
 * What is untrue of a line of a standing-plan box: null where it says a difference the records have at its slot (by the
 * words every screen prints: i18n/lesson-words.ts) or its slot is open, else what the records have there.
 */
export function standingLineUntrue(records: Records, lang: Language, l: StandingLine, truth = differences(records)): string | null {
  const slot = l.date === undefined ? undefined : truth.get(`${l.date} ${l.no}`);
  if (slot?.open) return null;
  const told =
    l.no === null
      ? slot?.kinds.has('no_lessons') === true
      : tellingsOf(records, l.date as string, l.no).some((t) => slot?.kinds.has(t.kind) === true && standingSaid(t, lang) === l.words);
  return told ? null : `the records: ${JSON.stringify(slot ? [...slot.kinds] : [])}`;
}

const standingBoard: Property = {
  name: 'the board tells the standing plan as the plan and the day differ',
  says:
    "each line of the board's standing-plan box is a difference the day has against the child's own entry of the plan, " +
    'by its names, and every slot that differs from today to the end of next week has a line',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const lang = d.run.world.language;
      const truth = differences(records);
      const found: string[] = [];
      const lines = (c.board?.standing?.items ?? []).map((item) => {
        const [, no, words] = /^(?:(\d+)\. )?(.*)$/s.exec(item.line) ?? [];
        return { ...item, date: boardDate(item.day, records, lang), no: no === undefined ? null : Number(no), words: words ?? '' };
      });
      for (const l of lines) {
        const untrue = standingLineUntrue(records, lang, l, truth);
        if (untrue !== null) found.push(`${c.run.id} board standing: ${l.day} "${l.line}", ${untrue}`);
      }
      // Until the plan is read (standing_differences null: a first start's first pass) no box is the honest board.
      const known = Array.isArray(retained(d, c, 'timetable_today')?.attributes.standing_differences);
      const last = addDays(mondayOf(records.today), 13);
      for (const [key, slot] of known ? truth : []) {
        const [date = '', no = ''] = key.split(' ');
        if (slot.open || slot.kinds.size === 0 || date < records.today || date > last) continue;
        // A split slot whose timetable holds every group: which group's change is the child's the spec does not say.
        if (planOn(records, date).filter((e) => String(e.no) === no).length > 1) continue;
        if (!lines.some((l) => l.date === date && String(l.no) === no))
          found.push(`${c.run.id} board standing: nothing of ${date} ${no}, which differs: ${[...slot.kinds].join(', ')}`);
      }
      return found;
    }),
};

/** Whether an event of the news tells its record as the records have it; the record's facts when it does not. */
function eventTold(records: Records, kind: string, p: Record<string, unknown>): string | null {
  const date = String(p.date);
  if (kind === 'grade') {
    const g = gradeOf(records, String(p.id));
    const told =
      g !== undefined && g.value === p.grade && g.subject === p.subject && g.date === date && (g.category === null || g.category === p.category);
    return told ? null : `Grades: ${JSON.stringify(g ?? 'none of this Id')}`;
  }
  if (kind === 'test' || kind === 'agenda') {
    const entries = agendaTold(records, date, p.subject, p.description);
    // It ends at its TimeTo where it has one after its TimeFrom (interface 19.1); an entry of no hour has no end.
    const told = entries.some((e) => p.time === e.start && (e.start === null || p.time_to === (e.end !== null && e.end > e.start ? e.end : null)));
    return told ? null : `HomeWorks of ${date}: ${JSON.stringify(entries.map((e) => `${e.start}–${e.end}`))}`;
  }
  if (kind === 'notice') {
    // Its subject, a day the announcement has (created or starting), and its text, cut short or whole.
    const n = announcementOf(records, String(p.id));
    const text = String(p.content);
    const told =
      n !== undefined &&
      n.subject.trim() === String(p.subject).trim() &&
      n.days.includes(date) &&
      (text === n.content || (text.endsWith('…') && n.content.startsWith(text.slice(0, -1))));
    return told ? null : `SchoolNotices: ${JSON.stringify(n ?? 'none of this Id')}`;
  }
  if (kind === 'plan_change') {
    const slot = slotsOn(records, date).find((s) => s.no === p.lesson_no);
    const lesson =
      p.kind === 'cancelled'
        ? slot?.cancelled.includes(String(p.subject))
        : p.kind === 'substitution'
          ? slot?.substitutions.some((s) => s.subject === p.subject && (p.original_subject === null || s.original === p.original_subject))
          : slot !== undefined;
    // A change the year's list tells of a slot the timetable has no lesson in: the reference reads the timetable alone.
    if (slot === undefined) return null;
    const told = p.hours === `${slot.from}-${slot.to}` && lesson === true;
    return told ? null : `the slot: ${JSON.stringify(slot ?? 'none')}`;
  }
  return null;
}

const newsEvents: Property = {
  name: 'an event tells the record it is of',
  says:
    "each grade, agenda entry, plan change and announcement a pass fires tells its record: a grade's value, subject, day " +
    "and category; an entry's day, subject, start and end (TimeTo); a changed lesson's day, number, hours and subject; an " +
    "announcement's subject, day and text",
  check: (d) =>
    recorded(d).flatMap(({ c, records }) =>
      c.run.events.flatMap((e) => {
        const wrong = eventTold(records, e.kind, e.payload as Record<string, unknown>);
        return wrong === null ? [] : [`${c.run.id} event ${e.kind} ${JSON.stringify(e.payload)}, ${wrong}`];
      }),
    ),
};

const testsComing: Property = {
  name: 'the tests of the next seven days are named',
  says:
    'upcoming_tests, from which the summary pressed on any day names the tests of the next 7 days, lists each test and ' +
    'quiz HomeWorks holds from today to 7 days on (by its category or its content), by its day and subject',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const items = retained(d, c, 'upcoming_tests')?.attributes.items;
      if (!Array.isArray(items)) return [];
      const told = items as { date?: string; subject?: string | null }[];
      return testsAhead(records, 7)
        .filter((t) => !told.some((i) => i.date === t.date && (i.subject ?? null) === t.subject))
        .map((t) => `${c.run.id} upcoming_tests (today ${records.today}): no ${t.date} ${t.subject} ("${t.category}: ${t.content}")`);
    }),
};

const lessonsFeed: Property = {
  name: 'the lessons feed cancels what the timetable does',
  says:
    'each lesson the lessons calendar feed marks cancelled (STATUS:CANCELLED; an extra class aside) is one the timetable ' +
    'has off in its slot (cancelled, moved away or freed), by its day, hour and subject; and each slot of this week and ' +
    'the next whose every lesson the timetable has off is one the feed marks cancelled at its hour',
  check: (d) =>
    recorded(d).flatMap(({ c, records }) => {
      const events = c.calendars.lessons;
      if (events === undefined) return [];
      // The timetable's lessons (an extra class is not the timetable's), each at its Warsaw day and hour.
      const timetables = events.filter((e) => !e.allDay && !e.uid.startsWith('extra-')).map((e) => ({ e, at: warsaw(Date.parse(e.start)) }));
      const marked = timetables.flatMap(({ e, at }) => {
        if (e.status !== 'CANCELLED') return [];
        if (records.days[at.date] === undefined) return [];
        const slot = slotsOn(records, at.date).find((s) => s.from === at.time);
        if (slot?.cancelled.some((subject) => e.summary.startsWith(subject)) === true) return [];
        return [`${c.run.id} lessons.ics ${at.date} ${at.time} "${e.summary}" cancelled, the slot: ${JSON.stringify(slot ?? 'none at that hour')}`];
      });
      const unmarked = fortnightOf(records)
        .flatMap((date) => slotsOn(records, date))
        .filter((s) => s.from !== null && s.cancelled.length > 0 && s.held.length === 0)
        .filter(
          (s) =>
            !timetables.some(
              ({ e, at }) =>
                at.date === s.date && at.time === s.from && e.status === 'CANCELLED' && s.cancelled.some((subject) => e.summary.startsWith(subject)),
            ),
        )
        .map((s) => `${c.run.id} lessons.ics ${s.date} ${s.from}: not marked cancelled, the timetable has every lesson off: ${JSON.stringify(s)}`);
      return [...marked, ...unmarked];
    }),
};

export const TRUTHS: readonly Property[] = [
  dayLessons,
  classAndLucky,
  standingPlan,
  agendaEnds,
  gradesCount,
  missedLessons,
  missedOverAWindow,
  movedWhereItLeaves,
  unreadMessages,
  standingBoard,
  newsEvents,
  testsComing,
  lessonsFeed,
];
