// The app's MCP server made known to Home Assistant through the Supervisor (interface 16.4): announced as
// `{service: "mcp", config: {url}}` (config.yaml's `discovery: [mcp]`) once the web server runs, so Home
// Assistant offers "dziennik2mqtt" among the discovered integrations and the family adds it with one click;
// withdrawn when the form's `ha_assist` is switched off. The Supervisor keeps the message across restarts
// (its uuid kept in data_dir/announcement.json), so a start announces only what changed: nothing, or a new
// address after `token --rotate` (the same uuid then: Home Assistant's entry follows the new address).
// A failure is a log line and a try again later; nothing else waits for it, nor does a stop.
import { join } from 'node:path';
import * as z from 'zod';
import type { Sink } from '../../bus/bus.js';
import type { AddonAnnouncement } from '../../config/schema.js';
import { announceService, withdrawService, type SupervisorOptions } from '../../config/supervisor.js';
import { SteadyFile } from '../../util/files.js';
import { readStored } from '../../util/stored.js';
import { MINUTE } from '../../util/duration.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { LiveToken, loadOrCreateToken, mcpUrl } from '../web/token.js';
import { keptUrl, MCP } from './steps.js';
import { faultText } from './client.js';
import { LookLoop } from './look-loop.js';

export const ANNOUNCEMENT_FILE = 'announcement.json';

/** The announcement the Supervisor holds: its uuid and the address it carries (its key as a digest); null once withdrawn. */
const announcedSchema = z.object({ version: z.literal(1), announced: z.object({ uuid: z.string().min(1), url: z.string() }).nullable() });
type Announced = NonNullable<z.output<typeof announcedSchema>['announced']>;

export interface AnnouncementOptions {
  supervisor: AddonAnnouncement;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** Whether the web server serves now (Home Assistant connects to it at once when the family clicks). */
  served: () => boolean;
}

/** How long after a failure the Supervisor is asked again. */
const RETRY = 5 * MINUTE;

export class SupervisorAnnouncement extends LookLoop implements Sink {
  private readonly file: SteadyFile;
  private announced: Announced | undefined;
  private token: LiveToken | undefined;

  constructor(private readonly options: AnnouncementOptions) {
    // One look at a time, tried again after a failure; its stop abandons the call in flight (interface 16.1).
    super({ clock: options.clock, backoff: { first: RETRY, longest: RETRY } });
    this.file = new SteadyFile(join(options.dataDir, ANNOUNCEMENT_FILE), { durable: true });
  }

  /** After the web server started: what the Supervisor holds is read back, and announced or withdrawn as the form says. */
  override async start(): Promise<void> {
    const { dataDir, log, supervisor } = this.options;
    const kept = await readStored(join(dataDir, ANNOUNCEMENT_FILE), announcedSchema, {
      onBroken: (error) => log.warn({ err: error.message }, 'what was announced to the Supervisor could not be read back'),
    });
    this.announced = kept?.announced ?? undefined;
    if (supervisor.assist && this.options.served()) {
      this.token = await loadOrCreateToken(dataDir)
        .then(({ value }) => new LiveToken(dataDir, value))
        .catch(() => undefined);
    }
    await super.start();
  }

  /** A sink of the bus: after a pass the address is looked at again (a rotated token changes it); asked only when it changed. */
  passed(): void {
    this.nudge();
  }

  protected async look(signal: AbortSignal): Promise<void> {
    const { supervisor, log } = this.options;
    const calls: SupervisorOptions = { token: supervisor.token, signal, ...(supervisor.baseUrl ? { baseUrl: supervisor.baseUrl } : {}) };
    const token = this.token?.current();
    if (supervisor.assist && supervisor.publicUrl !== undefined && token !== undefined && this.options.served()) {
      const url = mcpUrl(supervisor.publicUrl, token);
      const kept = keptUrl({ domain: MCP, url }) as string;
      if (this.announced?.url === kept) return;
      const uuid = await announceService(calls, MCP, { url });
      await this.keep({ uuid, url: kept });
      log.info({ service: MCP }, 'the MCP server announced to Home Assistant: it offers dziennik2mqtt among the discovered integrations');
    } else if (!supervisor.assist && this.announced !== undefined) {
      await withdrawService(calls, this.announced.uuid);
      await this.keep(undefined);
      log.info({ service: MCP }, 'the announcement of the MCP server withdrawn (ha_assist is off)');
    }
  }

  /** A log line (the Supervisor's words masked, then cut). */
  protected failed(error: unknown, wait: number): undefined {
    this.options.log.warn({ err: faultText(error), retry_in_minutes: wait / MINUTE }, 'the Supervisor could not be told of the MCP server');
    return undefined;
  }

  private async keep(announced: Announced | undefined): Promise<void> {
    this.announced = announced;
    await this.file.write(`${JSON.stringify({ version: 1, announced: announced ?? null })}\n`);
  }
}
