// One account's change feed as the simulated portal keeps it (live-notes 28-32): the devices registered for
// the account, each with the changes listed for it until they are deleted, and the switches tests flip
// (a refused registration, a forgotten device, a lost change, the cookie gateway granting the change feed).
// Written from the notes alone: nothing here is shared with the client's change feed.

/** How a record changed, as PushChanges names it. */
export type SimChangeKind = 'Add' | 'Edit' | 'Delete';

/** One change listed for one device. */
export interface SimChange {
  /** Unique across the simulator, so that one device's ids never delete another's changes. */
  id: number;
  kind: SimChangeKind;
  /** The API's resource name (live-notes 31): Grades, SchoolNotices, Calendars/Substitutions, ... */
  type: string;
  recordId: string;
  /** "YYYY-MM-DD HH:MM:SS", Warsaw time; listed only once this moment has passed. */
  addDate: string;
  extraData: string | null;
}

/** A record change as the register makes it, before the change feed gives it an id per device. */
export type SimChangeInit = Omit<SimChange, 'id'>;

/** How a registration of an account that already has a live device is answered; undefined: a new device. */
export type AlreadyRegistered = 'with-id' | 'without-id';

/** What POST ChangeRegister does for an account. */
export type Registration = { device: number } | { refused: 400 | 403 } | { already: number | undefined };

/** The simulator's counters, shared by every account so that ids never repeat across accounts. */
export interface ChangeFeedIds {
  device(): number;
  change(): number;
}

export class SimChangeFeed {
  /**
   * The cookie gateway (the register road) serves the change feed as the API host does. Off (the default), it
   * refuses it: no public client shows the change feed there (live-notes 28).
   */
  gatewayGranted = false;
  /** How a second registration is answered (live-notes 28's `DeviceRegistered`); undefined: each one makes a new device. */
  alreadyRegistered: AlreadyRegistered | undefined;
  /** Record changes the change feed lost (see loseNextChange), oldest first, for a test to look for. */
  readonly lost: SimChangeInit[][] = [];
  private refusal: 400 | 403 | undefined;
  private losing = 0;
  private readonly devices = new Map<number, SimChange[]>();

  constructor(private readonly ids: ChangeFeedIds) {}

  // ---- what the portal does ----

  /** A registration of the account with `sendPush` 0, or 1 (phone pushes: the paid add-on, never in this school). */
  register(sendPush: 0 | 1): Registration {
    if (this.refusal !== undefined) return { refused: this.refusal };
    if (sendPush === 1) return { refused: 403 };
    const newest = [...this.devices.keys()].at(-1);
    if (newest !== undefined && this.alreadyRegistered !== undefined) return { already: this.alreadyRegistered === 'with-id' ? newest : undefined };
    const device = this.ids.device();
    this.devices.set(device, []);
    return { device };
  }

  /** Whether a device is this account's and not forgotten. */
  knows(device: number): boolean {
    return this.devices.has(device);
  }

  /** The device's changes that have happened by `nowStamp`, in the order they were made. */
  listed(device: number, nowStamp: string): readonly SimChange[] {
    return (this.devices.get(device) ?? []).filter((c) => c.addDate <= nowStamp);
  }

  /** Deletes the device's changes with these ids (others', and ids no longer listed, are ignored). */
  remove(device: number, ids: readonly number[]): void {
    const list = this.devices.get(device);
    if (!list) return;
    const gone = new Set(ids);
    this.devices.set(
      device,
      list.filter((c) => !gone.has(c.id)),
    );
  }

  /**
   * One change of the register (several change feed entries when it touches several records, such as a moved
   * lesson's two days), listed for every device registered now: a device sees only what came after it.
   * One a test does not make (`losable: false`) never counts against loseNextChange.
   */
  record(changes: readonly SimChangeInit[], options: { losable?: boolean } = {}): void {
    if (changes.length === 0) return;
    if (this.losing > 0 && options.losable !== false) {
      this.losing--;
      this.lost.push([...changes]);
      return;
    }
    for (const list of this.devices.values()) for (const change of changes) list.push({ ...change, id: this.ids.change() });
  }

  // ---- switches ----

  /** Registrations answer 400 (InvalidRequest) or 403 (the paid add-on missing) from now on; null ends it. */
  refuseRegistration(status: 400 | 403 | null): void {
    this.refusal = status ?? undefined;
  }

  /** The portal forgets a device: its id answers UnableToGetPushDevice from now on. */
  forgetDevice(device: number): void {
    this.devices.delete(device);
  }

  /** The next `count` record changes never reach the change feed (live-notes 32: changes can go missing). */
  loseNextChange(count = 1): void {
    this.losing += count;
  }

  /** The live devices' ids, oldest first. */
  deviceIds(): number[] {
    return [...this.devices.keys()];
  }
}

/** Device and change ids of the change feed, as large as the portal's look. */
export function changeFeedIds(): ChangeFeedIds {
  let device = 4_180_000;
  let change = 27_500_000;
  return { device: () => ++device, change: () => ++change };
}
