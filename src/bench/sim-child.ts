// The simulated portal in a process of its own, so that the benchmark measures the bridge's CPU and
// memory alone. The parent sets the simulated time and asks for counts over IPC.
import { PortalSimulator } from '../simulator/index.js';
import { BENCH_FAMILY, benchLogin, type BenchProfile } from './accounts.js';
import { wallTime } from '../util/time.js';

export type ChildRequest =
  | { id: number; type: 'start'; children: number; profiles?: readonly BenchProfile[] }
  | { id: number; type: 'time'; now: number }
  | { id: number; type: 'counts' }
  | { id: number; type: 'grade'; login: string }
  | { id: number; type: 'descriptive grade'; login: string }
  | { id: number; type: 'notice'; login: string }
  | { id: number; type: 'lucky'; login: string; number: number; day: string }
  | { id: number; type: 'message'; login: string }
  | { id: number; type: 'test'; login: string; date: string }
  | { id: number; type: 'change'; login: string; date: string; lessonNo: number }
  | { id: number; type: 'point grade'; login: string }
  | { id: number; type: 'text grade'; login: string }
  | { id: number; type: 'note'; login: string }
  | { id: number; type: 'homework'; login: string; due: string }
  | { id: number; type: 'grant change feed'; logins: string[] }
  | { id: number; type: 'lose change'; login: string }
  | { id: number; type: 'hostile timetable'; login: string }
  | { id: number; type: 'noop' }
  | { id: number; type: 'stop' };

let now = 0;

/** The simulated moment as a record's dates give it (Warsaw). */
function clockNow(): { today: string; time: string } {
  const wall = wallTime(now);
  return { today: wall.date, time: wall.time.slice(0, 8) };
}
const sim = new PortalSimulator({ now: () => now });

async function handle(msg: ChildRequest): Promise<unknown> {
  switch (msg.type) {
    case 'start': {
      for (let i = 0; i < msg.children; i++) sim.addAccount({ ...benchLogin(i, msg.profiles) });
      sim.families.add({ ...BENCH_FAMILY, logins: Array.from({ length: msg.children }, (_, i) => benchLogin(i).login) });
      await sim.start();
      return sim.urls;
    }
    case 'time':
      now = msg.now;
      return null;
    case 'counts': {
      const byLogin: Record<string, Record<string, number>> = {};
      let bytes = 0;
      for (const r of sim.requests) {
        const key = r.login ?? '(none)';
        const path = `${r.method} ${r.host === 'portal' ? r.path.replace('/gateway/api/2.0/', '') : `${r.host}:${r.path}`}`
          .replace(/\/LID-[^/]+/g, '/<lid>')
          .replace(/\/\d+$/g, '/<id>');
        const bucket = (byLogin[key] ??= {});
        bucket[path] = (bucket[path] ?? 0) + 1;
        bytes += r.bytes ?? 0;
      }
      const logins: Record<string, number> = {};
      for (const login of Object.keys(byLogin)) logins[login] = sim.logins(login);
      return { byLogin, logins, bytes, total: sim.requests.length };
    }
    case 'descriptive grade':
      // The newer grading's partial grade, as a first-grader gets them (the simulator's Janek).
      sim.account(msg.login).addPartialGrade('5+');
      return null;
    case 'grade':
      sim.account(msg.login).addGrade({ subject: 5012, category: 301, grade: '4' });
      return null;
    case 'notice':
      sim.account(msg.login).addNotice({ Subject: 'Nowe ogłoszenie', Content: 'Treść' });
      return null;
    case 'lucky':
      sim.account(msg.login).setLuckyNumber(msg.number, msg.day);
      return null;
    case 'test':
      sim.account(msg.login).addTest({ date: msg.date, content: 'Sprawdzian: nowy dział.' });
      return null;
    case 'change': {
      // A second change of a slot shows nothing new: the bench would wait for a publish that never comes.
      if (sim.schoolDays(msg.login).changes.some((c) => c.OrgDate === msg.date && c.OrgLessonNo === msg.lessonNo)) {
        throw new Error(`lesson ${msg.lessonNo} of ${msg.date} already has a change; pick a slot without one`);
      }
      sim.account(msg.login).addPlanChange({ kind: 'cancelled', OrgDate: msg.date, OrgLessonNo: msg.lessonNo });
      return null;
    }
    case 'message':
      sim.messaging.addMessage(msg.login, { topic: 'Informacja od wychowawcy', body: 'Proszę o kontakt.', from: 162001 });
      return null;
    case 'point grade': {
      const account = sim.account(msg.login);
      const { today, time } = clockNow();
      account.addRecord('PointGrades', {
        Id: account.nextId('PointGrades'),
        Grade: '7',
        GradeValue: 7,
        Category: '@PointGrades/Categories/401',
        Subject: '@Subjects/5019',
        AddedBy: '@Users/162009',
        Date: today,
        AddDate: `${today} ${time}`,
      });
      return null;
    }
    case 'text grade': {
      const account = sim.account(msg.login);
      const { today, time } = clockNow();
      account.addRecord('BaseTextGrades', {
        Id: account.nextId('BaseTextGrades'),
        Grade: 'Bardzo dobrze pracuje w grupie.',
        Subject: '@Subjects/5020',
        Category: '@TextGrades/Categories/501',
        AddedBy: '@Users/162006',
        Date: today,
        AddDate: `${today} ${time}`,
      });
      return null;
    }
    case 'note': {
      const account = sim.account(msg.login);
      const { today, time } = clockNow();
      account.addRecord('Notes', {
        Id: account.nextId('Notes'),
        Text: 'Wzorowe zachowanie na wycieczce.',
        Category: '@Notes/Categories/1',
        Teacher: '@Users/162001',
        Date: today,
        Positive: 1,
        AddDate: `${today} ${time}`,
      });
      return null;
    }
    case 'homework':
      sim.account(msg.login).addHomework({ lesson: 8401, due: msg.due, topic: 'Zadania z podręcznika', text: 'Strona 42, zadania 1-5.' });
      return null;
    case 'grant change feed':
      // The register road's gateway grants the change feed (the simulator refuses it there by default).
      for (const login of msg.logins) sim.account(login).changeFeed.gatewayGranted = true;
      return null;
    case 'lose change':
      sim.account(msg.login).changeFeed.loseNextChange();
      return null;
    case 'hostile timetable':
      sim.account(msg.login).serveHostileStandingTimetable();
      return null;
    case 'noop':
      return null;
    case 'stop':
      await sim.stop();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (msg: ChildRequest) => {
  handle(msg).then(
    (result) => process.send?.({ id: msg.id, result }),
    (error: unknown) => process.send?.({ id: msg.id, error: String(error) }),
  );
});
