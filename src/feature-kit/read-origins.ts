// Who asked the portal for each copy: the scheduler, reading the table's due rows before the features
// compute, or a feature's poll itself (what its last pass did not ask for). A read the scheduler was
// given and left for a feature (by age, a failure's retry) is "late": the table was not the schedule.

/** The reads of an account so far, by who made them. */
export interface ReadsByOrigin {
  scheduler: number;
  /**
   * A feature's own reads, by `endpoint (why)`: its first pass or a new date (`no copy`), a signal that
   * moved in this pass (`signal`), a command's need (`asked`).
   */
  features: Record<string, number>;
  /** A feature's reads of a copy the scheduler was given and found not due, by age or a failure: none, or the table is not the schedule. */
  late: string[];
}

export class ReadOrigins {
  /** The copies the scheduler was given this pass. */
  private offered = new Set<string>();
  private scheduling = false;
  private readonly reads: ReadsByOrigin = { scheduler: 0, features: {}, late: [] };

  /** A new pass: nothing offered yet. */
  newPass(): void {
    this.offered = new Set();
  }

  /** The scheduler's reads: `work` reads the copies of `keys` (those of them due). */
  async scheduled(keys: Iterable<string>, work: () => Promise<void>): Promise<void> {
    for (const key of keys) this.offered.add(key);
    this.scheduling = true;
    try {
      await work();
    } finally {
      this.scheduling = false;
    }
  }

  /** One request for a copy, and why it was made. */
  count(endpoint: string, key: string, why: string): void {
    const name = `${endpoint} (${why})`;
    if (this.scheduling) this.reads.scheduler++;
    else if (this.offered.has(key) && (why === 'age' || why === 'failed' || why === 'refresh')) this.reads.late.push(name);
    else this.reads.features[name] = (this.reads.features[name] ?? 0) + 1;
  }

  snapshot(): ReadsByOrigin {
    return { scheduler: this.reads.scheduler, features: { ...this.reads.features }, late: [...this.reads.late] };
  }
}
