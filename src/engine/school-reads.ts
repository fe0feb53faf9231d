// A read that answers for a whole school. The lucky number is the school's, not the child's: two children of one
// school (the same School.Id, on any account and either road) must show one number, and each reading it on its own
// hour showed two for as long as an hour apart. So a copy of a resource declared `school: true` that one child's
// pass read is told to the school's other children, who take it as their own read (ResourceCache.take): they show
// it at once, and their own planner counts from that read, so the telling costs no request.
import type { Resource } from './resource.js';

/** A child that hears what its school's other children read. */
export interface SchoolChild {
  /** Its school's id; undefined while it is not known (then it neither tells nor hears). */
  school(): string | undefined;
  /** Another child of its school read `res` at `at`, and it answered `value`. */
  told(res: Resource, value: unknown, at: number): void;
}

/** Every child of the bridge, by school: one for the whole bridge (app/app.ts), shared by every account. */
export class SchoolReads {
  private readonly children = new Set<SchoolChild>();

  /** A child joins (its account starts); the answer is how it leaves. */
  join(child: SchoolChild): () => void {
    this.children.add(child);
    return () => this.children.delete(child);
  }

  /** `from` read `res` at `at`: every other child of its school is told. */
  read(from: SchoolChild, res: Resource, value: unknown, at: number): void {
    const school = from.school();
    if (school === undefined) return;
    for (const child of this.children) if (child !== from && child.school() === school) child.told(res, value, at);
  }
}
