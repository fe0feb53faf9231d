// Where the MCP server's answers come from (interface 17.1): a sink of the bus that keeps, per child and feature,
// the last facts a pass kept for Assist (SourceResult.ask). They are the features' own view objects, referenced,
// not copied: a new pass's facts replace the last ones, a child removed takes its facts along. Loaded with the MCP
// server only.
import type { Sink } from '../../bus/bus.js';
import type { AskFacts } from '../../engine/source.js';

export class AssistFacts implements Sink {
  private readonly byChild = new Map<string, Map<string, unknown>>();

  askFacts(childId: string, facts: AskFacts): void {
    let kept = this.byChild.get(childId);
    if (kept === undefined) {
      kept = new Map();
      this.byChild.set(childId, kept);
    }
    for (const [feature, value] of Object.entries(facts)) kept.set(feature, value);
  }

  removed(childId: string): void {
    this.byChild.delete(childId);
  }

  /** A child's facts by feature name; none before its first pass. */
  of(childId: string): ReadonlyMap<string, unknown> {
    return this.byChild.get(childId) ?? new Map();
  }
}
