// A queue that runs async work one piece at a time, in order: an account's passes and commands, the writes of a file.
/** What the chain keeps of a piece of work: that it is over, whatever its outcome. */
const settled = (): void => undefined;

export class SerialQueue {
  private chain: Promise<void> = Promise.resolve();

  /** Runs work after whatever is queued, never at the same time; its outcome is the caller's. */
  enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.then(settled, settled);
    return run;
  }

  /** Resolves when nothing is queued any more (including work queued while waiting). */
  async idle(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.chain) {
      seen = this.chain;
      await seen;
    }
  }
}
