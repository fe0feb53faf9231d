// A model of Home Assistant's WebSocket API as the bridge uses it (interface 16.3), built from Home Assistant
// core's source and strict where it is strict: components/websocket_api/auth.py (the server speaks first,
// `auth_required`; `{type: auth, access_token}` or `auth_invalid` and the connection closed),
// connection.py (each command an integer `id` larger than the last, else `id_reuse`; an unknown type
// `unknown_command`), and components/recorder/websocket_api.py `recorder/import_statistics` (admin only; the
// metadata's and the rows' voluptuous schema, an unknown key refused) with statistics.py's checks of an
// external statistic (`domain:object` ids, the source equal to the domain, each start timezone-aware on a
// whole hour). Rows are kept by statistic and start (an import upserts). The frames are the `ws` library's;
// it shares no code with src/outputs/homeassistant/. The tests and the bench use it through HomeAssistantModel.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/** A row as kept: the hour's start (UTC ms) and its figures. */
export interface ModelRow {
  start: number;
  mean?: number;
  min?: number;
  max?: number;
}

export interface ModelStatistic {
  metadata: Record<string, unknown>;
  rows: Map<number, ModelRow>;
}

/** What the test makes the WebSocket do: refuse the token, or not answer at all. */
export type SocketOutage = 401 | 'away' | undefined;

/** recorder/websocket_api.py: the metadata's keys, each with its test (required ones marked). */
const METADATA: Record<string, { required: boolean; ok: (v: unknown) => boolean }> = {
  has_mean: { required: false, ok: (v) => typeof v === 'boolean' },
  mean_type: { required: false, ok: (v) => v === 0 || v === 1 || v === 2 },
  has_sum: { required: true, ok: (v) => typeof v === 'boolean' },
  name: { required: true, ok: (v) => v === null || typeof v === 'string' },
  source: { required: true, ok: (v) => typeof v === 'string' },
  statistic_id: { required: true, ok: (v) => typeof v === 'string' },
  unit_class: { required: false, ok: (v) => v === null || typeof v === 'string' },
  unit_of_measurement: { required: true, ok: (v) => v === null || typeof v === 'string' },
};
const ROW_NUMBERS = ['mean', 'min', 'max', 'state', 'sum'];
/** core.py valid_entity_id's rule for each half of a statistic id (recorder/statistics.py valid_statistic_id). */
const OBJECT = /^(?!.+__)(?!_)[\da-z_]+(?<!_)$/;
/** An ISO datetime with its offset (cv.datetime takes a naive one too; statistics.py then refuses it). */
const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

class Refused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class StatisticsModel {
  readonly statistics = new Map<string, ModelStatistic>();
  /** Every import taken, in order: its statistic id and how many rows. */
  readonly imports: { statistic_id: string; rows: number }[] = [];
  /** Every message a client sent (the auth message's token masked), for the tests. */
  readonly received: Record<string, unknown>[] = [];
  connections = 0;
  outage: SocketOutage;
  /** False: the token is a user's without admin rights (require_admin answers `unauthorized`). */
  admin = true;
  private readonly server = new WebSocketServer({ noServer: true });

  constructor(private readonly token: string) {}

  /** The HTTP server's upgrade: only /api/websocket is Home Assistant's WebSocket. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.outage === 'away' || new URL(req.url ?? '/', 'http://model').pathname !== '/api/websocket') {
      socket.destroy();
      return;
    }
    this.server.handleUpgrade(req, socket, head, (ws) => this.serve(ws));
  }

  close(): void {
    for (const client of this.server.clients) client.terminate();
    this.server.close();
  }

  /** A statistic's rows by day (the Warsaw date of each start) and mean. */
  rowsOf(statisticId: string): Map<number, ModelRow> {
    return this.statistics.get(statisticId)?.rows ?? new Map();
  }

  private serve(ws: WebSocket): void {
    this.connections++;
    let authenticated = false;
    let lastId = 0;
    const send = (message: unknown) => ws.send(JSON.stringify(message));
    send({ type: 'auth_required', ha_version: '2026.11.0' });
    ws.on('message', (data) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        ws.close(1002);
        return;
      }
      this.received.push(message.type === 'auth' ? { ...message, access_token: '(masked)' } : message);
      if (!authenticated) {
        if (message.type === 'auth' && message.access_token === this.token && this.outage !== 401) {
          authenticated = true;
          send({ type: 'auth_ok', ha_version: '2026.11.0' });
        } else {
          send({
            type: 'auth_invalid',
            message: message.type === 'auth' ? 'Invalid access token or password' : 'Auth message incorrectly formatted',
          });
          ws.close();
        }
        return;
      }
      const id = message.id;
      if (typeof id !== 'number' || !Number.isInteger(id)) {
        send({ id, type: 'result', success: false, error: { code: 'invalid_format', message: 'Message incorrectly formatted.' } });
        return;
      }
      if (id <= lastId) {
        send({ id, type: 'result', success: false, error: { code: 'id_reuse', message: 'Identifier values have to increase.' } });
        return;
      }
      lastId = id;
      try {
        if (message.type !== 'recorder/import_statistics') throw new Refused('unknown_command', 'Unknown command.');
        if (!this.admin) throw new Refused('unauthorized', 'Unauthorized');
        this.importStatistics(message);
        send({ id, type: 'result', success: true, result: null });
      } catch (error) {
        const refused = error instanceof Refused ? error : new Refused('unknown_error', 'Unknown error');
        send({ id, type: 'result', success: false, error: { code: refused.code, message: refused.message } });
      }
    });
  }

  private importStatistics(message: Record<string, unknown>): void {
    for (const key of Object.keys(message))
      if (!['id', 'type', 'metadata', 'stats'].includes(key)) throw new Refused('invalid_format', `extra keys not allowed @ data['${key}']`);
    const metadata = message.metadata as Record<string, unknown> | undefined;
    if (typeof metadata !== 'object' || metadata === null) throw new Refused('invalid_format', "required key not provided @ data['metadata']");
    for (const [key, rule] of Object.entries(METADATA)) {
      if (!(key in metadata)) {
        if (rule.required) throw new Refused('invalid_format', `required key not provided @ data['metadata']['${key}']`);
      } else if (!rule.ok(metadata[key])) throw new Refused('invalid_format', `invalid value @ data['metadata']['${key}']`);
    }
    for (const key of Object.keys(metadata))
      if (!(key in METADATA)) throw new Refused('invalid_format', `extra keys not allowed @ data['metadata']['${key}']`);
    const stats = message.stats;
    if (!Array.isArray(stats)) throw new Refused('invalid_format', "expected a list @ data['stats']");
    const rows = stats.map((row: Record<string, unknown>, i) => {
      for (const key of Object.keys(row))
        if (key !== 'start' && key !== 'last_reset' && !ROW_NUMBERS.includes(key))
          throw new Refused('invalid_format', `extra keys not allowed @ data['stats'][${i}]['${key}']`);
      for (const key of ROW_NUMBERS)
        if (key in row && (typeof row[key] !== 'number' || !Number.isFinite(row[key])))
          throw new Refused('invalid_format', `expected float @ data['stats'][${i}]['${key}']`);
      return row;
    });
    // statistics.py async_add_external_statistics: the id, the source, then each start.
    const id = String(metadata.statistic_id);
    const [domain, object, ...rest] = id.split(':');
    if (domain === undefined || object === undefined || rest.length > 0 || !OBJECT.test(domain) || !OBJECT.test(object))
      throw new Refused('home_assistant_error', `Invalid statistic_id ${id}`);
    if (metadata.source !== domain) throw new Refused('home_assistant_error', `Invalid source ${String(metadata.source)}`);
    const kept = this.statistics.get(id) ?? { metadata, rows: new Map<number, ModelRow>() };
    const parsed = rows.map((row) => {
      const match = ISO.exec(String(row.start ?? ''));
      if (!match) throw new Refused('invalid_format', "invalid datetime @ data['stats'][0]['start']");
      if (match[6] === undefined) throw new Refused('home_assistant_error', 'Naive timestamp');
      if (match[3] !== '00' || (match[4] ?? '00') !== '00' || (match[5] !== undefined && Number(match[5]) !== 0))
        throw new Refused('home_assistant_error', 'Invalid timestamp');
      return { start: Date.parse(String(row.start)), mean: row.mean as number, min: row.min as number, max: row.max as number };
    });
    kept.metadata = metadata;
    for (const row of parsed) kept.rows.set(row.start, row);
    this.statistics.set(id, kept);
    this.imports.push({ statistic_id: id, rows: parsed.length });
  }
}
