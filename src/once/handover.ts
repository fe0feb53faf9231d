// The handover of each child's event memory between bridges on one base topic (interface 14.4, 16.1): the
// holder tells its memory on as it saves it (retained on the broker, so that a successor starts from it:
// nothing announced is announced again, nothing since is lost); a bridge that took the base topic over
// reads what its predecessor told. The MQTT sink does the telling and the reading (mqtt/sink.ts).

export interface Handover {
  /** A child's memory as saved, told on for a successor. */
  tell(childId: string, memory: unknown): void;
  /** What the base topic's holder before this bridge (another installation) told of a child's memory, if anything. */
  told(childId: string): unknown;
  /** The memories on disk no longer hold these delivered events: the MQTT session forgets them. */
  settled(ids: readonly string[]): void;
}
