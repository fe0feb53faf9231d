// A split class's other group (issue 36, item 8): on Wednesdays the other English group has a 7th lesson
// that Ania, whose attendance marks name only her own group's English lesson, never attends. Her day
// ends with her own 6th lesson: lessons_end_today, at_school and timetable_today count only her lessons.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday, during the 6th lesson (12:45-13:30); the other group's 7th runs 13:40-14:25.
const NOW = '2026-11-18T13:00:00+01:00';
const school = simulatedSchool(NOW);

describe('a split class’s other group', () => {
  it('does not lengthen the child’s day: her last lesson ends it', async () => {
    // English of the other group (lesson 8404, shared with Ania's group on Mondays' 3rd slot), 7th on Wednesdays.
    school.sim.account(ANIA.login).addGroupLesson({ weekday: 3, lessonNo: 7, lesson: 8404, classroom: 303 });
    const h = await school.firstPasses(['lessons_end_today', 'timetable_today', 'absences_unexcused']);
    await h.advanceMinutes(2);

    expect(h.state('ania', 'lessons_end_today')).toBe('2026-11-18T13:30:00+01:00');
    expect(h.state('ania', 'timetable_today')).toBe('6');
    const lessons = h.attributes('ania', 'timetable_today')?.lessons as { no: number }[];
    expect(lessons.map((l) => l.no)).not.toContain(7);

    // After her last lesson she is not at school any more, though the other group still has English.
    school.clock.set('2026-11-18T13:45:00+01:00');
    await h.advanceMinutes(1);
    expect(h.state('ania', 'at_school')).toBe('OFF');
  });
});
