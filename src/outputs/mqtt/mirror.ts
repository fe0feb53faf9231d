// What the broker should hold retained for us, and which of it has not been sent yet. Publishing only
// on change, catching up after an outage and republishing everything are all one question: which
// topics differ from what was last sent.

export class RetainedMirror {
  private readonly desired = new Map<string, string>();
  private readonly sent = new Map<string, string>();
  /** Topics to send, in the order they changed: a payload from `desired`, or empty to clear. */
  private readonly dirty = new Set<string>();

  set(topic: string, payload: string): void {
    const sent = this.sent.get(topic);
    if (sent === payload) {
      // The text already sent, not the equal one just made: the two maps then hold one string between
      // them, where each new state's JSON would otherwise stay twice (a child's discovery alone 60 KB).
      this.desired.set(topic, sent);
      this.dirty.delete(topic);
    } else {
      this.desired.set(topic, payload);
      this.dirty.add(topic);
    }
  }

  /** Empties a retained topic, also one left by an earlier run that this process never sent. */
  clear(topic: string): void {
    this.desired.delete(topic);
    this.dirty.add(topic);
  }

  /** Clears every topic we hold under a prefix (a child's `<base>/<c>/`). */
  clearUnder(prefix: string): void {
    for (const topic of [...this.desired.keys()]) if (topic.startsWith(prefix)) this.clear(topic);
  }

  /** Whether a payload is wanted on this topic. */
  desires(topic: string): boolean {
    return this.desired.has(topic);
  }

  /** Whether this payload is the one wanted on the topic. */
  holds(topic: string, payload: string): boolean {
    return this.desired.get(topic) === payload;
  }

  /** Sends a topic's payload again (another client wrote over it). */
  again(topic: string): void {
    if (!this.desired.has(topic)) return;
    this.sent.delete(topic);
    this.dirty.add(topic);
  }

  /** Forgets what the broker has (a reconnect, Home Assistant restarted): everything goes again. */
  resend(): void {
    this.sent.clear();
    for (const topic of this.desired.keys()) this.dirty.add(topic);
  }

  /** The messages to send now, in order; they count as sent from here on. */
  take(): Array<{ topic: string; payload: string }> {
    const out = [...this.dirty].map((topic) => {
      const payload = this.desired.get(topic);
      if (payload === undefined) this.sent.delete(topic);
      else this.sent.set(topic, payload);
      return { topic, payload: payload ?? '' };
    });
    this.dirty.clear();
    return out;
  }
}
