// Demo life: every few minutes the simulated school gives a child a grade, a message, a plan change
// and an announcement, so that someone trying the demo sees the bridge fire its events.
import type { Clock, Timer } from '../util/clock.js';
import { addDays } from './dates.js';
import type { PlannedLesson } from './data/school-days.js';
import type { SimAccount } from './account.js';
import type { PortalSimulator } from './index.js';

export interface LifeOptions {
  simulator: PortalSimulator;
  /** The accounts that get news, in turn: one per round. */
  logins: readonly string[];
  /** Only setTimer is used; "now" is the simulator's own clock. */
  clock: Pick<Clock, 'setTimer'>;
  /** Delay before the first round (default 60 s: after the bridge's first pass has primed its memory). */
  firstAfterMs?: number;
  /** Delay between rounds (default 3 minutes). */
  everyMs?: number;
  /** Told about every round, e.g. to print it. */
  onRound?: (round: LifeRound) => void;
}

/** What one round added, in words a person reads. */
export interface LifeRound {
  login: string;
  child: string;
  /** None for a child with no lessons (a kindergarten child). */
  grade?: { grade: string; subject: string; comment?: string };
  message: { topic: string };
  /** None once every lesson of the coming weeks has a change already (after many hours of demo). */
  planChange?: { date: string; lessonNo: number; kind: 'cancelled' | 'substitution'; subject: string };
  notice: { subject: string };
}

/** Some written with a teacher's comment in the same moment, as the portal keeps it (Grades/Comments, named by the grade). */
const GRADES: readonly { grade: string; category: number; comment?: string }[] = [
  { grade: '5', category: 302 },
  { grade: '4+', category: 301, comment: 'Dobra robota, popraw rachunki.' },
  { grade: '6', category: 305, comment: 'Świetna praca!' },
  { grade: '3', category: 303 },
  { grade: '5-', category: 304 },
];

const MESSAGES: readonly { topic: string; body: string }[] = [
  { topic: 'Wycieczka do Centrum Nauki', body: 'Proszę o zgodę na udział dziecka w wycieczce w przyszłym tygodniu.' },
  { topic: 'Strój galowy w piątek', body: 'W piątek odbędzie się apel, proszę o strój galowy.' },
  { topic: 'Zbiórka makulatury', body: 'Przypominam o zbiórce makulatury do końca miesiąca.' },
];

const NOTICES: readonly { subject: string; content: string }[] = [
  { subject: 'Kiermasz świąteczny', content: 'Zapraszamy na kiermasz świąteczny w holu szkoły.' },
  { subject: 'Konkurs recytatorski', content: 'Zgłoszenia do szkolnego konkursu recytatorskiego przyjmują poloniści.' },
  { subject: 'Szczepienia w szkole', content: 'Pielęgniarka szkolna zaprasza na szczepienia; zgody w sekretariacie.' },
];

/** Teachers who stand in (Monika Piotrowska, else Agnieszka Mazur), so a substitution names someone new. */
const SUBSTITUTE_TEACHERS = [162015, 162011] as const;
/** How far ahead a plan change may be put when the next school days are already full of them. */
const PLAN_CHANGE_HORIZON_DAYS = 28;

export class SimLife {
  private timer: Timer | undefined;
  private rounds = 0;
  /** Per login, the last day found with no lesson left to change; a day's lessons never come back unchanged. */
  private readonly changedThrough = new Map<string, string>();

  constructor(private readonly options: LifeOptions) {
    if (options.logins.length === 0) throw new Error('SimLife: no logins');
  }

  start(): void {
    if (this.timer) return;
    this.schedule(this.options.firstAfterMs ?? 60_000);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Adds one round of news now, to the next account in turn. */
  round(): LifeRound {
    const n = this.rounds++;
    const { logins } = this.options;
    const login = logins[n % logins.length]!;
    const turn = Math.floor(n / logins.length);
    const sim = this.options.simulator;
    const account = sim.account(login);
    const subjectName = (id: number): string => subjectNames(sim, login).get(id) ?? String(id);

    const grade = this.addGrade(login, turn);
    const message = MESSAGES[turn % MESSAGES.length]!;
    const tutor = tutorOf(account);
    sim.messaging.addMessage(login, { ...message, ...(tutor === undefined ? {} : { from: tutor }) });
    const notice = NOTICES[turn % NOTICES.length]!;
    account.addNotice({ Subject: notice.subject, Content: notice.content });
    const change = this.addPlanChange(login, turn);
    const result: LifeRound = {
      login,
      child: account.data.account.child.firstName,
      ...(grade ? { grade: { ...grade, subject: subjectName(grade.subject) } } : {}),
      message: { topic: message.topic },
      ...(change ? { planChange: { ...change, subject: subjectName(change.subject) } } : {}),
      notice: { subject: notice.subject },
    };
    this.options.onRound?.(result);
    return result;
  }

  /**
   * Gives the child a grade in the subject of one of its own lessons, in turn; none to a child with no lessons
   * (a kindergarten child: its register keeps no grades).
   */
  private addGrade(login: string, turn: number): { grade: string; subject: number; comment?: string } | undefined {
    const account = this.options.simulator.account(login);
    const lessons = Object.entries(account.data.lessons);
    if (lessons.length === 0) return undefined;
    const [lessonId, lesson] = lessons[turn % lessons.length]!;
    const pick = GRADES[turn % GRADES.length]!;
    account.addGrade({ subject: lesson.subject, category: pick.category, grade: pick.grade, lesson: Number(lessonId), comment: pick.comment });
    return { grade: pick.grade, subject: lesson.subject, ...(pick.comment ? { comment: pick.comment } : {}) };
  }

  private schedule(ms: number): void {
    this.timer = this.options.clock.setTimer(() => {
      this.round();
      this.schedule(this.options.everyMs ?? 3 * 60_000);
    }, ms);
  }

  /**
   * Cancels or substitutes a lesson of the next school day that has no change yet (a later day once
   * those are all changed): each change is then a new lesson for the bridge, hence a new event.
   */
  private addPlanChange(
    login: string,
    turn: number,
  ): { date: string; lessonNo: number; kind: 'cancelled' | 'substitution'; subject: number } | undefined {
    const found = this.unchangedLesson(login);
    if (!found) return undefined;
    const { date, lesson } = found;
    const kind = turn % 2 === 0 ? 'cancelled' : 'substitution';
    const teacher = SUBSTITUTE_TEACHERS.find((t) => t !== lesson.teacher)!;
    this.options.simulator
      .account(login)
      .addPlanChange(
        kind === 'cancelled'
          ? { kind, OrgDate: date, OrgLessonNo: lesson.lessonNo }
          : { kind, OrgDate: date, OrgLessonNo: lesson.lessonNo, Teacher: teacher, Classroom: null },
      );
    return { date, lessonNo: lesson.lessonNo, kind, subject: lesson.subject };
  }

  /**
   * The first lesson within the horizon with no change yet, and its day. The days found changed throughout are
   * remembered (a change is never taken back), so that a demo left running for days reads its plan only for the
   * day the horizon has just reached.
   */
  private unchangedLesson(login: string): { date: string; lesson: PlannedLesson } | undefined {
    const sim = this.options.simulator;
    const changedThrough = this.changedThrough.get(login);
    const after = (day: number): string => addDays(sim.today(), day);
    if (changedThrough !== undefined && changedThrough >= after(PLAN_CHANGE_HORIZON_DAYS)) return undefined;
    const schoolDays = sim.schoolDays(login);
    const taken = new Set(schoolDays.changes.map((c) => `${c.OrgDate}#${c.OrgLessonNo}`));
    for (let day = 1; day <= PLAN_CHANGE_HORIZON_DAYS; day++) {
      const date = after(day);
      if (changedThrough !== undefined && date <= changedThrough) continue;
      // Only the first lesson of a slot can change (split groups never do), as in the simulator's timetable.
      const lesson = schoolDays.lessonsOn(date).find((l) => !taken.has(`${date}#${l.lessonNo}`) && !l.cancelled && !l.change);
      if (lesson) return { date, lesson };
      this.changedThrough.set(login, date);
    }
    return undefined;
  }
}

/** Who writes to the family: the class tutor, or the kindergarten group's first tutor; undefined when the school names none. */
function tutorOf(account: SimAccount): number | undefined {
  const classTutor = account.school.classes.find((c) => c.Id === account.data.account.classId)?.ClassTutor;
  return classTutor ?? account.kindergarten?.fixture.group.tutors[0];
}

function subjectNames(sim: PortalSimulator, login: string): Map<number, string> {
  const body = sim.account(login).resources.get('Subjects') as { Subjects?: { Id: number; Name: string }[] } | undefined;
  return new Map((body?.Subjects ?? []).map((s) => [s.Id, s.Name]));
}
