// The generated worlds as a test file runs them: one simulator and one fake clock for the file, the worlds' seed and
// count (`npm run worlds -- --runs 5000`, or WORLDS_RUNS, WORLDS_SEED and WORLDS_PATH for one failing world alone),
// each world run once however many properties read it, and a failure's words: the property, what it found, the seed
// and path that replay it alone.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { PortalSimulator } from '../../../src/simulator/index.js';
import { FakeClock } from '../clock.js';
import { restartWorld, runWorld, type WorldRun } from './drive.js';
import { readDoors, type Plant, type WorldDoors } from './doors.js';
import type { GradesAsk } from '../../../src/features/grades/ask.js';
import type { TimetableAsk } from '../../../src/features/timetable/ask.js';
import { worldArb, type World } from './world.js';
import { PROPERTIES, type Property } from './properties.js';
import { TRUTHS } from './truths.js';
import type { Records } from '../reference/portal.js';
import { agendaOf, lessonsOn, luckyOf, movedAway, rows, idOf, testsAhead } from '../reference/school.js';
import { gradesOf, missedOf, unreadOf } from '../reference/marks.js';
import { addDays, weekday } from '../reference/dates.js';

/** Every property a world is held to: the doors against the features' values, and against the reference model. */
export const HELD: readonly Property[] = [...PROPERTIES, ...TRUTHS];

/** How many worlds' runs a file keeps unless it asks for more. */
const KEPT_RUNS = 8;
/** How many smaller worlds a shrink tries at most. */
const SHRINK_RUNS = 60;

/** The suite's seed: a fixed one, so that `npm test` runs the same worlds every time. */
export const SEED = process.env.WORLDS_SEED === undefined ? 1418 : Number(process.env.WORLDS_SEED);
/**
 * How many worlds of the fixed seed `npm test` runs: with the commit's seed's (RANDOM_RUNS), 300 a run (interface 18.1,
 * 19.1); `npm run worlds -- --runs N` runs more.
 */
export const RUNS = process.env.WORLDS_RUNS === undefined ? 260 : Number(process.env.WORLDS_RUNS);
/**
 * A seed of the commit under test (WORLDS_RANDOM_SEED to choose another), whose worlds `npm test` runs beside the fixed
 * seed's: each commit holds worlds no commit before it held, and a run of the same commit, CI's among them, holds the
 * same worlds again, so that its verdict is one anyone finds again. Outside a git checkout, a fresh seed each run.
 */
export const RANDOM_SEED =
  process.env.WORLDS_RANDOM_SEED === undefined ? (commitSeed() ?? Math.floor(Math.random() * 2 ** 31)) : Number(process.env.WORLDS_RANDOM_SEED);

/** The first 31 bits of the checked-out commit's hash; undefined where there is no git or no commit. */
function commitSeed(): number | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /^[0-9a-f]{8}/.test(head) ? Number.parseInt(head.slice(0, 8), 16) % 2 ** 31 : undefined;
  } catch {
    return undefined;
  }
}
/** How many worlds each walk over days (a night, a clock change, a new school year) takes `npm test` through. */
export const WALKS = process.env.WORLDS_WALKS === undefined ? 4 : Number(process.env.WORLDS_WALKS);
/** How many worlds of the commit's seed `npm test` runs. */
export const RANDOM_RUNS = 40;
/** The path fast-check printed with a failure: with the seed, it replays that (shrunk) world alone. */
export const PATH = process.env.WORLDS_PATH;

export class Worlds {
  /**
   * `kept`: how many of the last worlds' runs and doors are kept. A file whose planted fault walks again the worlds its
   * property walked (rendered.test.ts) keeps them all rather than run each world's passes twice.
   */
  constructor(private readonly kept = KEPT_RUNS) {}

  private sim: PortalSimulator | undefined;
  private readonly clock = new FakeClock('2026-09-01T08:00:00+02:00');
  /** The last worlds' runs, by their description (a shrink visits a world again; a planted fault reads its doors anew). */
  private readonly runs = new Map<string, Promise<WorldRun>>();
  /** The doors of the last worlds' runs as read unplanted, by the world's description. */
  private readonly read = new Map<string, Promise<WorldDoors>>();
  /** The shapes the worlds read unplanted carried (shapesOf): that the properties held in them is not vacuous. */
  readonly shapes = new Set<string>();
  /** Every property's findings in each world run unplanted: a property after the first reads the worlds the first ran. */
  private readonly found = new Map<string, Promise<Record<string, string[]>>>();

  async start(): Promise<void> {
    this.sim = new PortalSimulator({ now: () => this.clock.now(), accounts: [] });
    await this.sim.start();
  }

  async stop(): Promise<void> {
    await this.sim?.stop();
    this.runs.clear();
    this.read.clear();
  }

  run(world: World): Promise<WorldRun> {
    const key = JSON.stringify(world);
    let run = this.runs.get(key);
    if (run === undefined) {
      if (this.sim === undefined) throw new Error('worlds: not started');
      run = runWorld(this.sim, this.clock, world);
      keep(this.runs, key, run, this.kept);
    }
    return run;
  }

  /** The world run, then its bridge started again on its data_dir `minutes` later (drive.ts restartWorld). */
  async restarted(world: World, minutes: number): ReturnType<typeof restartWorld> {
    if (this.sim === undefined) throw new Error('worlds: not started');
    return restartWorld(this.sim, this.clock, await this.run(world), minutes);
  }

  /**
   * Every property's findings in the world run and then walked to `walkTo` by its running bridge (drive.ts runWorld),
   * its doors read there, each prefixed with the property's name. Run afresh each time: a walk is never kept.
   */
  async walked(world: World, walkTo: string): Promise<string[]> {
    if (this.sim === undefined) throw new Error('worlds: not started');
    const doors = await readDoors(await runWorld(this.sim, this.clock, world, walkTo));
    return HELD.flatMap((p) => p.check(doors).map((found) => `${p.name}: ${found}`));
  }

  /** The world's doors: read anew with a planted fault; unplanted, read once while its run is kept. */
  async doors(world: World, plant?: Plant): Promise<WorldDoors> {
    if (plant !== undefined) return readDoors(await this.run(world), plant);
    const key = JSON.stringify(world);
    let doors = this.read.get(key);
    if (doors === undefined) {
      doors = this.run(world).then((run) => readDoors(run));
      keep(this.read, key, doors, this.kept);
    }
    return doors;
  }

  /** What `property` finds in a world (planted: read anew; else every property's findings, kept). */
  async findingsOf(world: World, property: Property, plant?: Plant): Promise<string[]> {
    if (plant !== undefined) return property.check(await this.doors(world, plant));
    const key = JSON.stringify(world);
    let found = this.found.get(key);
    if (found === undefined) {
      found = this.doors(world).then((doors) => {
        for (const shape of shapesOf(doors)) this.shapes.add(shape);
        return Object.fromEntries(HELD.map((p) => [p.name, p.check(doors)]));
      });
      this.found.set(key, found);
    }
    return (await found)[property.name] ?? property.check(await this.doors(world));
  }

  /**
   * Holds `property` in `runs` worlds from `seed` (or the one world `path` names): throws fast-check's report (the
   * shrunk world, its seed and path) with the property's findings and the command that replays it alone.
   */
  async check(
    property: Property,
    options: { runs?: number; seed?: number; path?: string; plant?: Plant; shrink?: boolean; shrinkRuns?: number; arb?: fc.Arbitrary<World> } = {},
  ): Promise<void> {
    const seed = options.seed ?? SEED;
    const path = options.path ?? PATH;
    // A shrink runs a world for each smaller one it tries: after SHRINK_RUNS of them the rest count as holding, so
    // that a failure is reported within a minute or two with the smallest world found by then.
    let shrinking = -1;
    const holds = fc.asyncProperty(options.arb ?? worldArb, async (world) => {
      if (shrinking >= (options.shrinkRuns ?? SHRINK_RUNS)) return;
      if (shrinking >= 0) shrinking++;
      const found = await this.findingsOf(world, property, options.plant);
      if (found.length === 0) return;
      if (shrinking < 0) shrinking = 0;
      throw new Error(`${property.name}: ${property.says}\n${found.slice(0, 12).join('\n')}`);
    });
    await fc.assert(holds, {
      numRuns: options.runs ?? RUNS,
      seed,
      ...(path === undefined ? {} : { path }),
      endOnFailure: options.shrink === false,
      reporter: (details) => {
        if (!details.failed) return;
        const found = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        const replay = `WORLDS_SEED=${details.seed} WORLDS_PATH=${details.counterexamplePath} npx vitest run test/unit/worlds/worlds.test.ts -t "${property.name}"`;
        throw new WorldFailure(
          property,
          details.seed,
          details.counterexamplePath ?? '',
          details.counterexample?.[0],
          `${found}\n\n${fc.defaultReportMessage(details) ?? ''}\nReplay this world alone: ${replay}`,
        );
      },
    });
  }
}

/** Keeps `value` by `key`, and of the others only the newest `kept` (a world's run holds its doors' every state: a few are kept, not the hundreds of a file). */
function keep<T>(map: Map<string, T>, key: string, value: T, kept: number): void {
  map.set(key, value);
  for (const old of map.keys()) if (map.size > kept) map.delete(old);
}

/** A property that failed in a world: its seed and path, which replay that world alone. */
export class WorldFailure extends Error {
  constructor(
    readonly property: Property,
    readonly seed: number,
    readonly path: string,
    /** The (shrunk) world it failed in. */
    readonly world: World | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** What a world read carries that a property holds something about: its children's kinds, a family login, events by kind, term grades by period, plan changes by kind, refused modules. */
function shapesOf(doors: WorldDoors): string[] {
  const { world } = doors.run;
  const timetable = (c: WorldDoors['children'][number]) => (c.facts.get('timetable') as TimetableAsk | undefined)?.fortnight ?? [];
  return [
    ...(world.family && world.children.length > 1 ? ['family login: several children'] : []),
    ...world.children.map((c) => `child: ${c.kind}`),
    ...world.children.flatMap((c) => c.refused.map((r) => `refused: ${r.endpoint}`)),
    ...doors.children.flatMap((c) => c.run.events.map((e) => `event: ${e.kind}`)),
    ...doors.children.flatMap((c) =>
      ((c.facts.get('grades') as GradesAsk | undefined)?.items ?? []).map((i) => `grade: ${String(i.details.period ?? 'ordinary')}`),
    ),
    ...doors.children.flatMap((c) =>
      timetable(c).flatMap((d) =>
        d.changes.map(
          (ch) => `change: ${ch.kind === 'substitution' && ch.subject !== ch.original_subject ? 'substitution by another subject' : ch.kind}`,
        ),
      ),
    ),
    ...doors.children.flatMap((c) => (c.run.records === undefined ? [] : recordShapes(c.run.records))),
  ];
}

/** What a child's records carry that the reference holds a door to (world.ts, interface 19.1's wider worlds). */
function recordShapes(records: Records): string[] {
  const plan = rows(records, 'TimetableEntries', 'TimetableEntries');
  const firstOfSlot = (e: Record<string, unknown>) => plan.find((o) => o.DayOfTheWeek === e.DayOfTheWeek && o.LessonNo === e.LessonNo);
  const held = new Set(Object.keys(records.days).flatMap((d) => (lessonsOn(records, d) ?? []).map((l) => l.lesson)));
  const klass = idOf((records.lists.Classes as { Class?: Record<string, unknown> } | null | undefined)?.Class?.Id);
  const schoolDays = Object.keys(records.days).filter((d) => (lessonsOn(records, d) ?? []).length > 0);
  const otherClassFree = rows(records, 'ClassFreeDays', 'ClassFreeDays').some(
    (f) => idOf(f.Class) !== klass && schoolDays.some((d) => String(f.DateFrom) <= d && d <= String(f.DateTo)),
  );
  const shapes: [string, boolean][] = [
    ['records: a split slot whose first entry is the other group', plan.some((e) => firstOfSlot(e) !== e && !held.has(idOf(firstOfSlot(e)?.Lesson)))],
    ['records: an agenda entry ending after its hour', agendaOf(records).some((e) => e.end !== null && e.start !== null && e.end > addHour(e.start))],
    ['records: an unread message without a subject', unreadOf(records).some((m) => m.topic.trim() === '')],
    ['records: a lesson missed over 14 days ago', missedOf(records).some((m) => m.date < addDays(records.today, -14))],
    ['records: no lucky number', luckyOf(records) === null],
    ['records: a lesson 0', Object.values(records.days).some((slots) => (slots[0]?.length ?? 0) > 0)],
    ['records: a lesson moved away from its slot', movedAway(records).length > 0],
    ['records: a mark that does not count', gradesOf(records).some((g) => !g.counts)],
    ['records: a test on a Saturday', testsAhead(records, 366).some((e) => weekday(e.date) === 6)],
    // A class changed within the year (world.ts movedClass): its old class's trip on a school day of the child's.
    ['records: a free day of another class on a school day', otherClassFree],
  ];
  return shapes.filter(([, has]) => has).map(([shape]) => shape);
}

const addHour = (time: string): string => `${String(Number(time.slice(0, 2)) + 1).padStart(2, '0')}${time.slice(2)}`;
