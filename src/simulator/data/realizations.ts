// Realizations (lessons held) for the whole school year so far, as a real account lists them: one per
// lesson held, each subject's topics following its own sequence, and a test on the agenda as the topic
// of the lesson it was written in. Records tests add (addRealization) replace or join the generated ones.
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { ref } from '../expand.js';
import { heldLessons } from './attendance.js';
import { expandIn } from './context.js';
import type { DataContext } from './context.js';
import { buildSchoolDays } from './school-days.js';

/**
 * Agenda entries written in a lesson, which so becomes that lesson's topic: by category, or by the
 * word in Content (a quiz is often filed under a generic category, spec 2.8).
 */
const TEST_WORDS = /sprawdzian|kartkówk|praca klasowa/i;
const FALLBACK_TOPIC = 'Lekcja organizacyjna';

type Agenda = { HomeWorks?: { Date?: string; Content?: string; Category?: { Id?: unknown }; Subject?: { Id?: unknown } }[] };
type Categories = { Categories?: { Id?: unknown; Name?: string }[] };

/** "subject/date" -> the test written that day (its Content, without the closing full stop). */
function testsByDay(ctx: DataContext): Map<string, string> {
  const { account } = ctx;
  const body = (endpoint: string): unknown => account.overrides.get(endpoint) ?? account.resources.get(endpoint);
  const categories = expandIn<Categories>(ctx, body('HomeWorks/Categories') ?? {}).Categories ?? [];
  const testIds = new Set(categories.filter((c) => TEST_WORDS.test(c.Name ?? '')).map((c) => String(c.Id)));
  const out = new Map<string, string>();
  for (const entry of expandIn<Agenda>(ctx, body('HomeWorks') ?? {}).HomeWorks ?? []) {
    const isTest = testIds.has(String(entry.Category?.Id)) || TEST_WORDS.test(entry.Content ?? '');
    if (!isTest || entry.Subject?.Id === undefined || !entry.Date) continue;
    const key = `${String(entry.Subject.Id)}/${entry.Date}`;
    if (!out.has(key)) out.set(key, (entry.Content ?? '').trim().replace(/\.$/, ''));
  }
  return out;
}

export function realizations(ctx: DataContext): DataResult {
  const schoolDays = buildSchoolDays(ctx);
  const topics = ctx.account.school.topics;
  const tests = testsByDay(ctx);
  // Topic n+1 follows topic n per subject; back-to-back lessons of a subject share a topic (a double
  // lesson, or the block of early education), and a test lesson does not move the sequence on.
  const next = new Map<number, number>();
  const lastSlot = new Map<number, string>();
  const usedSlots = new Set<string>();
  const usedTests = new Set<string>();
  const records: Record<string, unknown>[] = [];
  for (const { date, lesson } of heldLessons(ctx, schoolDays, schoolDays.dayIndex(ctx.today))) {
    // A slot split into groups holds several lessons; the child attends the first (as in Attendances).
    const slot = `${date}/${lesson.lessonNo}`;
    if (usedSlots.has(slot)) continue;
    usedSlots.add(slot);
    const subject = lesson.change?.subject ?? lesson.subject;
    const test = tests.get(`${subject}/${date}`);
    let topic: string;
    if (test !== undefined && !usedTests.has(`${subject}/${date}`)) {
      usedTests.add(`${subject}/${date}`);
      topic = test;
    } else {
      if (lastSlot.get(subject) !== `${date}/${lesson.lessonNo - 1}`) next.set(subject, (next.get(subject) ?? -1) + 1);
      lastSlot.set(subject, slot);
      const bank = topics[String(subject)] ?? [FALLBACK_TOPIC];
      topic = bank[(next.get(subject) ?? 0) % bank.length] ?? FALLBACK_TOPIC;
    }
    records.push({
      Id: `t${5_000_000 + schoolDays.dayIndex(date) * 20 + lesson.lessonNo}`,
      Lesson: ref(ctx, 'Lessons', lesson.change?.lessonId ?? lesson.lessonId),
      LessonNo: String(lesson.lessonNo),
      Date: date,
      Topic: topic,
      IsTrip: false,
      CountInStatistics: true,
      CountInRPN: true,
      AddedBy: ref(ctx, 'Users', lesson.change?.teacher ?? lesson.teacher),
    });
  }
  for (const added of expandIn<Record<string, unknown>[]>(ctx, ctx.account.addedRealizations)) {
    const same = records.findIndex((r) => r.Date === added.Date && r.LessonNo === added.LessonNo);
    if (same >= 0) records[same] = added;
    else records.push(added);
  }
  records.sort((a, b) => String(a.Date).localeCompare(String(b.Date)) || Number(a.LessonNo) - Number(b.LessonNo));
  return answers.ok({ Realizations: records });
}
