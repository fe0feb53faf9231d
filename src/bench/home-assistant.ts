// A model of the few calls of Home Assistant's REST API the bridge makes (interface 15.4), built from Home
// Assistant core's own source (docs/home-assistant.md names the files and the version) and strict where it
// is strict: a bearer token or 401; the config-entries flow API with each step's voluptuous schema (an
// unknown field refused); Remote Calendar's flow fetching the calendar feed's address to validate it; the Model
// Context Protocol's flow connecting to the server it is given (initialize) and titling the entry by its name; Local To-do's
// list named by its slug; the to-do services with their fields, `?return_response` and their errors. The
// tests and the bench share it (as the fake clock); it shares no code with src/outputs/homeassistant/, so a
// misreading of Home Assistant in one is caught by the other. Never part of the running bridge.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { StatisticsModel } from './home-assistant-socket.js';

export interface ModelItem {
  uid: string;
  summary: string;
  status: 'needs_action' | 'completed';
  due?: string;
  description?: string;
}

interface ModelEntry {
  entry_id: string;
  domain: string;
  title: string;
  data: Record<string, unknown>;
}

/** A Remote Calendar's entity and each read of its calendar feed after its setup (when asked to update it). */
interface CalendarEntity {
  entity_id: string;
  name: string;
  entry_id: string;
  reads: { status: number; body: string }[];
}

interface TodoList {
  entity_id: string;
  name: string;
  entry_id: string;
  items: ModelItem[];
}

/**
 * What the test makes Home Assistant do instead of answering: refuse every token, fail, not answer at all,
 * or refuse with a long message that repeats the bearer token near its 200th character (a proxy that echoes).
 */
export type Outage = 401 | 500 | 'away' | 'echo' | undefined;

/** A refusal as Home Assistant's HTTP layer answers it. */
class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
/** A voluptuous schema's refusal (vol.Invalid): the view turns it into 400 "400: Bad Request" unless it words it itself. */
class Invalid extends Error {}
/** A HomeAssistantError in a service (ServiceValidationError too): the REST view does not catch it, aiohttp answers 500. */
class ServiceError extends Error {}

const BAD_REQUEST = new Answer(400, '400: Bad Request');
const SERVER_ERROR = new Answer(500, '500 Internal Server Error\n\nServer got itself in trouble');
/** The entity service fields every entity service takes (helpers/config_validation.py ENTITY_SERVICE_FIELDS). */
const TARGETS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'];

export class HomeAssistantModel {
  readonly entries: ModelEntry[] = [];
  readonly lists = new Map<string, TodoList>();
  readonly calendars = new Map<string, CalendarEntity>();
  /** Every request, as it came: method, path (with its query), the status answered. */
  readonly calls: { method: string; path: string; status: number }[] = [];
  /** The handler of every config flow started, in order. */
  readonly flowsStarted: string[] = [];
  outage: Outage;
  /** An answer lost on its way back: the request is done as asked, then the connection dropped (a proxy restarting). */
  loses: ((method: string, path: string) => boolean) | undefined;
  private readonly flows = new Map<string, { handler: string; step: string }>();
  private server: Server | undefined;
  url = '';
  /** Its WebSocket at /api/websocket: the recorder's statistics (home-assistant-socket.ts). */
  readonly socket: StatisticsModel;

  /** `token`: the one bearer token let in (a long-lived access token of an administrator, or the Supervisor's). */
  constructor(readonly token: string) {
    this.socket = new StatisticsModel(token);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => this.socket.upgrade(req, socket, head));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.socket.close();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  // What the family does in Home Assistant's own screens.

  /** The entry of that title, deleted as Settings > Devices & services > Delete does it. */
  familyDeletes(title: string): void {
    const entry = this.entries.find((e) => e.title === title);
    if (entry === undefined) throw new Error(`model: no entry "${title}"`);
    this.remove(entry.entry_id);
  }

  /** An entry made by hand (the Remote Calendar manual steps, a list of the blueprint's docs). */
  familyMakes(domain: string, title: string, data: Record<string, unknown>): void {
    this.add(domain, title, data);
  }

  /** The item of that summary in a list, ticked (or unticked). */
  familyTicks(listName: string, summary: string, status: ModelItem['status'] = 'completed'): void {
    const item = this.list(listName)?.items.find((i) => i.summary === summary);
    if (item === undefined) throw new Error(`model: no item "${summary}" in "${listName}"`);
    item.status = status;
  }

  /** The item of that summary deleted from a list (the family's bin icon). */
  familyRemoves(listName: string, summary: string): void {
    const list = this.list(listName);
    if (list) list.items = list.items.filter((i) => i.summary !== summary);
  }

  list(name: string): TodoList | undefined {
    return [...this.lists.values()].find((l) => l.name === name);
  }

  /** How many flows were started and neither finished nor aborted. */
  get flowsInProgress(): number {
    return this.flows.size;
  }

  /** The calendar entity of the Remote Calendar entry of that title. */
  calendar(name: string): CalendarEntity | undefined {
    return [...this.calendars.values()].find((c) => c.name === name);
  }

  /** Each mcp entry's first listing of the tools, made as Home Assistant sets the entry up; its descriptions stand 30 minutes. */
  readonly firstListings = new Map<string, ReturnType<HomeAssistantModel['mcpTools']>>();

  entriesOf(domain: string): ModelEntry[] {
    return this.entries.filter((e) => e.domain === domain);
  }

  /**
   * What the mcp integration's coordinator does with an entry every 30 minutes: a session at the entry's
   * address, `tools/list`, and each tool's input schema converted for the conversation agent (as
   * voluptuous_openapi's convert does: a failure fails the whole listing). The tools and their parameters.
   */
  async mcpTools(entry: ModelEntry): Promise<Array<{ name: string; description: string; parameters: Record<string, string> }>> {
    const result = (await mcpSession(String(entry.data.url), 'tools/list', {})) as {
      tools?: Array<{ name: string; description?: string; inputSchema: unknown }>;
    };
    return (result.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: convertSchema(tool.name, tool.inputSchema),
    }));
  }

  /** A call as ModelContextProtocolTool makes it (a session of its own): the text of its content, or its error raised. */
  async callMcpTool(entry: ModelEntry, name: string, args: Record<string, unknown>): Promise<string> {
    const result = (await mcpSession(String(entry.data.url), 'tools/call', { name, arguments: args })) as {
      content?: Array<{ type: string; text?: string }>;
      isError?: boolean;
    };
    const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
    if (result.isError === true) throw new Error(`Error calling tool: ${text}`);
    return text;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => resolve(text));
    });
    if (this.outage === 'away') {
      this.calls.push({ method: req.method ?? '', path: req.url ?? '', status: 0 });
      req.socket.destroy();
      return;
    }
    let answer: Answer;
    try {
      answer = await this.route(req, body);
    } catch (error) {
      answer = error instanceof Answer ? error : error instanceof Invalid ? BAD_REQUEST : SERVER_ERROR;
    }
    if (this.loses?.(req.method ?? '', req.url ?? '')) {
      this.calls.push({ method: req.method ?? '', path: req.url ?? '', status: 0 });
      req.socket.destroy();
      return;
    }
    this.calls.push({ method: req.method ?? '', path: req.url ?? '', status: answer.status });
    const json = typeof answer.body !== 'string';
    res.writeHead(answer.status, { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' });
    res.end(json ? JSON.stringify(answer.body) : answer.body);
  }

  private async route(req: IncomingMessage, body: string): Promise<Answer> {
    // http/auth.py: a bearer token or nothing (a 401 of aiohttp's own text).
    if (req.headers.authorization !== `Bearer ${this.token}` || this.outage === 401) return new Answer(401, '401: Unauthorized');
    if (this.outage === 500) return SERVER_ERROR;
    if (this.outage === 'echo')
      return new Answer(400, {
        message: `${'Request refused by the proxy. '.repeat(5)}Authorization header: Bearer ${this.token} (not allowed here)`,
      });
    const url = new URL(req.url ?? '/', 'http://model');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/api/') return new Answer(200, { message: 'API running.' });
    if (method === 'GET' && path === '/api/config/config_entries/entry') {
      const domain = url.searchParams.get('domain');
      return new Answer(200, this.entries.filter((e) => domain === null || e.domain === domain).map(entryJson));
    }
    if (method === 'POST' && path === '/api/config/config_entries/flow') return this.startFlow(body);
    // ConfigManagerFlowIndexView: the flows in progress are listed over the WebSocket API only.
    if (method === 'GET' && path === '/api/config/config_entries/flow') return new Answer(405, '405: Method Not Allowed');
    const flow = /^\/api\/config\/config_entries\/flow\/([^/]+)$/.exec(path)?.[1];
    if (method === 'POST' && flow !== undefined) return this.stepFlow(flow, body);
    if (method === 'DELETE' && flow !== undefined) {
      // FlowManagerResourceView.delete: the flow aborted, or 404 when none is in progress under that id.
      if (!this.flows.delete(flow)) return new Answer(404, { message: 'Invalid flow specified' });
      return new Answer(200, { message: 'Flow aborted' });
    }
    const entry = /^\/api\/config\/config_entries\/entry\/([^/]+)$/.exec(path)?.[1];
    if (method === 'DELETE' && entry !== undefined) {
      if (!this.entries.some((e) => e.entry_id === entry)) return new Answer(404, { message: 'Invalid entry specified' });
      this.remove(entry);
      return new Answer(200, { require_restart: false });
    }
    if (method === 'GET' && path === '/api/states') return new Answer(200, this.states());
    const service = /^\/api\/services\/([^/]+)\/([^/]+)$/.exec(path);
    if (method === 'POST' && service)
      return await this.callService(service[1] as string, service[2] as string, url.searchParams.has('return_response'), body);
    return new Answer(404, '404: Not Found');
  }

  // helpers/data_entry_flow.py FlowManagerIndexView / FlowManagerResourceView, components/config/config_entries.py.

  private startFlow(body: string): Answer {
    const data = jsonObject(body, 'Invalid JSON.');
    if (typeof data.handler !== 'string' && !Array.isArray(data.handler)) {
      return new Answer(400, { message: "Message format incorrect: required key not provided @ data['handler']" });
    }
    const handler = String(data.handler);
    if (!(handler in STEP_SCHEMAS)) return new Answer(404, { message: 'Invalid handler specified' });
    const flow_id = randomUUID().replace(/-/g, '');
    this.flowsStarted.push(handler);
    this.flows.set(flow_id, { handler, step: 'user' });
    return new Answer(200, formJson(flow_id, handler, 'user', null));
  }

  private async stepFlow(flowId: string, body: string): Promise<Answer> {
    const flow = this.flows.get(flowId);
    if (flow === undefined) return new Answer(404, { message: 'Invalid flow specified' });
    const input = body === '' ? {} : jsonObject(body, 'Invalid JSON.');
    const schema = STEP_SCHEMAS[flow.handler as keyof typeof STEP_SCHEMAS];
    let data: Record<string, unknown>;
    try {
      data = validate(schema, input);
    } catch (error) {
      return new Answer(400, { message: `User input malformed: ${(error as Error).message}` });
    }
    const done = (result: Record<string, unknown>): Answer => {
      this.flows.delete(flowId);
      return new Answer(200, { flow_id: flowId, handler: flow.handler, description_placeholders: null, ...result });
    };
    const abort = (reason: string) => done({ type: 'abort', reason });
    if (flow.handler === 'mcp') return this.mcpStep(flowId, data, done);
    if (flow.handler === 'local_todo') {
      // local_todo/config_flow.py: the storage key is the name slugified; a second list of that key aborts.
      const key = slugify(String(data.todo_list_name));
      if (this.entriesOf('local_todo').some((e) => e.data.storage_key === key)) return abort('already_configured');
      return done(createJson(this.add('local_todo', String(data.todo_list_name), { ...data, storage_key: key })));
    }
    // remote_calendar/config_flow.py: a name or an address already configured aborts; the calendar feed is fetched and parsed.
    if (this.entriesOf('remote_calendar').some((e) => e.data.calendar_name === data.calendar_name)) return abort('already_configured');
    const address = String(data.url).replace(/^webcal:\/\//, 'https://');
    if (this.entriesOf('remote_calendar').some((e) => e.data.url === address)) return abort('already_configured');
    const error = await fetchCalendar(address);
    if (error !== undefined) return new Answer(200, formJson(flowId, flow.handler, 'user', { base: error }));
    return done(createJson(this.add('remote_calendar', String(data.calendar_name), { ...data, url: address })));
  }

  /**
   * mcp/config_flow.py async_step_user: the address checked as cv.url, an entry of the same address aborts,
   * then validate_input connects to the server (mcp_client: the MCP SDK's Streamable HTTP client) and the
   * entry takes the server's name as its title. A server that answers 401 sends the flow to OAuth's
   * discovery: with no authorization server to find, Home Assistant shows the credentials menu.
   */
  private async mcpStep(flowId: string, data: Record<string, unknown>, done: (result: Record<string, unknown>) => Answer): Promise<Answer> {
    const url = String(data.url);
    if (!/^https?:\/\/[^/?#\s]+/.test(url) || !URL.canParse(url)) return new Answer(200, formJson(flowId, 'mcp', 'user', { url: 'invalid_url' }));
    if (this.entriesOf('mcp').some((e) => e.data.url === url)) return done({ type: 'abort', reason: 'already_configured' });
    const server = await initializeMcp(url);
    if (server === 401) {
      return new Answer(200, {
        type: 'menu',
        flow_id: flowId,
        handler: 'mcp',
        step_id: 'credentials_choice',
        menu_options: ['pick_implementation', 'new_credentials'],
      });
    }
    if (typeof server === 'string') return new Answer(200, formJson(flowId, 'mcp', 'user', { base: server }));
    if (!server.tools) return done({ type: 'abort', reason: 'missing_capabilities' });
    const entry = this.add('mcp', server.name, { url });
    // Set up as soon as it is made: the coordinator's first refresh lists the tools, and keeps that listing 30 minutes.
    const listing = this.mcpTools(entry);
    // Awaited by whoever reads it; a failed listing is no unhandled rejection meanwhile.
    listing.catch(() => undefined);
    this.firstListings.set(entry.entry_id, listing);
    return done(createJson(entry));
  }

  private add(domain: string, title: string, data: Record<string, unknown>): ModelEntry {
    const entry = { entry_id: randomUUID().replace(/-/g, '').slice(0, 26).toUpperCase(), domain, title, data };
    this.entries.push(entry);
    if (domain === 'local_todo') {
      // The entity takes its name (has_entity_name, no device): todo.<slug>, _2 when taken.
      const base = `todo.${slugify(title)}`;
      let entity_id = base;
      for (let n = 2; this.lists.has(entity_id); n++) entity_id = `${base}_${n}`;
      this.lists.set(entity_id, { entity_id, name: title, entry_id: entry.entry_id, items: [] });
    }
    if (domain === 'remote_calendar') {
      // remote_calendar/calendar.py: has_entity_name with the entry's title as the device's name: calendar.<slug>.
      const base = `calendar.${slugify(title)}`;
      let entity_id = base;
      for (let n = 2; this.calendars.has(entity_id); n++) entity_id = `${base}_${n}`;
      this.calendars.set(entity_id, { entity_id, name: title, entry_id: entry.entry_id, reads: [] });
    }
    return entry;
  }

  private remove(entryId: string): void {
    this.entries.splice(
      this.entries.findIndex((e) => e.entry_id === entryId),
      1,
    );
    for (const [id, list] of this.lists) if (list.entry_id === entryId) this.lists.delete(id);
    for (const [id, calendar] of this.calendars) if (calendar.entry_id === entryId) this.calendars.delete(id);
  }

  private states(): unknown[] {
    const now = new Date().toISOString();
    const state = (entity_id: string, value: string, attributes: Record<string, unknown>) => ({
      entity_id,
      state: value,
      attributes,
      last_changed: now,
      last_reported: now,
      last_updated: now,
      context: { id: randomUUID(), parent_id: null, user_id: null },
    });
    return [
      state('sun.sun', 'above_horizon', { friendly_name: 'Sun' }),
      state('todo.shopping_list', '0', { friendly_name: 'Shopping List', supported_features: 15 }),
      ...[...this.calendars.values()].map((c) => state(c.entity_id, 'off', { friendly_name: c.name, supported_features: 0 })),
      ...[...this.lists.values()].map((l) =>
        state(l.entity_id, String(l.items.filter((i) => i.status === 'needs_action').length), { friendly_name: l.name, supported_features: 127 }),
      ),
    ];
  }

  /**
   * components/homeassistant/__init__.py: `update_entity` takes `entity_id` (one or a list, nothing else) and
   * has each entity update now; for a Remote Calendar that is its coordinator's refresh, which reads the calendar feed
   * (otherwise read once a day). An entity that does not exist is a warning in Home Assistant's log.
   */
  private async updateEntity(wantsResponse: boolean, body: string): Promise<Answer> {
    if (wantsResponse) return new Answer(400, { message: 'Service does not support responses. Remove return_response from request.' });
    const data = validate({ entity_id: need(stringOrList) }, jsonObject(body, 'Data should be valid JSON.'));
    for (const id of [data.entity_id].flat()) {
      const calendar = this.calendars.get(String(id));
      const entry = this.entries.find((e) => e.entry_id === calendar?.entry_id);
      if (calendar === undefined || entry === undefined) continue;
      const address = String(entry.data.url);
      const answer = await fetch(address, { signal: AbortSignal.timeout(30_000) }).then(
        async (r) => ({ status: r.status, body: await r.text() }),
        () => ({ status: 0, body: '' }),
      );
      calendar.reads.push(answer);
    }
    return new Answer(200, []);
  }

  // components/api/__init__.py APIDomainServicesView and todo/services.py.

  private async callService(domain: string, service: string, wantsResponse: boolean, body: string): Promise<Answer> {
    if (domain === 'homeassistant' && service === 'update_entity') return this.updateEntity(wantsResponse, body);
    const schema = domain === 'todo' ? TODO_SERVICES[service as keyof typeof TODO_SERVICES] : undefined;
    if (schema === undefined) return BAD_REQUEST;
    const responds = service === 'get_items';
    if (wantsResponse && !responds) return new Answer(400, { message: 'Service does not support responses. Remove return_response from request.' });
    if (!wantsResponse && responds) {
      return new Answer(400, {
        message: 'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.',
      });
    }
    const data = validate(
      { ...schema.fields, ...Object.fromEntries(TARGETS.map((t) => [t, optional(stringOrList)])) },
      jsonObject(body, 'Data should be valid JSON.'),
    );
    if (!TARGETS.some((t) => t in data)) throw new Invalid('must contain at least one of entity_id, device_id, area_id, floor_id, label_id.');
    schema.check?.(data);
    const lists = [data.entity_id ?? []].flat().flatMap((id) => this.lists.get(String(id)) ?? []);
    if (responds) {
      if (lists.length === 0) throw new ServiceError('Service call requested response data but did not match any entities');
      const statuses = data.status === undefined ? undefined : [data.status].flat();
      const items = (l: TodoList) => l.items.filter((i) => statuses === undefined || statuses.includes(i.status)).map((i) => ({ ...i }));
      return new Answer(200, { changed_states: [], service_response: Object.fromEntries(lists.map((l) => [l.entity_id, { items: items(l) }])) });
    }
    // A missing entity is a warning in Home Assistant's log and nothing done.
    for (const list of lists) serve(list, service, data);
    return new Answer(200, []);
  }
}

/** A voluptuous field: validates (and coerces) a value, or throws Invalid with voluptuous' words. */
type Field = { required: boolean; check: (value: unknown, key: string) => unknown; fallback?: unknown };

const need = (check: Field['check']): Field => ({ required: true, check });
const optional = (check: Field['check'], fallback?: unknown): Field => ({ required: false, check, ...(fallback === undefined ? {} : { fallback }) });
const str: Field['check'] = (v, key) => {
  if (typeof v !== 'string') throw new Invalid(`expected str for dictionary value @ data['${key}']`);
  return v;
};
const bool: Field['check'] = (v, key) => {
  if (typeof v !== 'boolean') throw new Invalid(`expected bool for dictionary value @ data['${key}']`);
  return v;
};
/** cv.string, str.strip, Length(min=1): a text that is not blank. */
const text: Field['check'] = (v, key) => {
  if (typeof v !== 'string' && typeof v !== 'number') throw new Invalid(`expected str @ data['${key}']`);
  const s = String(v).trim();
  if (s === '') throw new Invalid(`length of value must be at least 1 @ data['${key}']`);
  return s;
};
const stringOrList: Field['check'] = (v, key) => {
  if (typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))) return v;
  throw new Invalid(`expected str @ data['${key}']`);
};
const nullable =
  (check: Field['check']): Field['check'] =>
  (v, key) =>
    v === null ? null : check(v, key);
/** cv.date: YYYY-MM-DD of a real day. */
const date: Field['check'] = (v, key) => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw new Invalid(`Invalid date specified @ data['${key}']`);
  return v;
};
const status: Field['check'] = (v, key) => {
  if (v !== 'needs_action' && v !== 'completed') throw new Invalid(`value must be one of ['completed', 'needs_action'] @ data['${key}']`);
  return v;
};

/** vol.Schema(fields) (extra keys refused) applied to data: defaults filled, the first problem thrown. */
function validate(fields: Record<string, Field>, data: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(data)) if (!(key in fields)) throw new Invalid(`extra keys not allowed @ data['${key}']`);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (key in data) out[key] = field.check(data[key], key);
    else if (field.required) throw new Invalid(`required key not provided @ data['${key}']`);
    else if ('fallback' in field) out[key] = field.fallback;
  }
  return out;
}

const STEP_SCHEMAS = {
  remote_calendar: { calendar_name: need(str), url: need(str), verify_ssl: optional(bool, true) },
  local_todo: { todo_list_name: need(str) },
  mcp: { url: need(str) },
};

const DUE_AND_DESCRIPTION = { due_date: optional(nullable(date)), due_datetime: optional(nullable(str)), description: optional(nullable(str)) };
const atMostOneDue = (d: Record<string, unknown>): void => {
  if ('due_date' in d && 'due_datetime' in d) throw new Invalid('must contain at most one of due_date, due_datetime.');
};

const TODO_SERVICES: Record<string, { fields: Record<string, Field>; check?: (d: Record<string, unknown>) => void }> = {
  add_item: { fields: { item: need(text), ...DUE_AND_DESCRIPTION }, check: atMostOneDue },
  update_item: {
    fields: { item: need(text), rename: optional(text), status: optional(status), ...DUE_AND_DESCRIPTION },
    check: (d) => {
      atMostOneDue(d);
      if (!['rename', 'status', 'due_date', 'due_datetime', 'description'].some((k) => k in d)) {
        throw new Invalid('must contain at least one of rename, status, due_date, due_datetime, description.');
      }
    },
  },
  remove_item: { fields: { item: need(stringOrList) } },
  get_items: { fields: { status: optional((v, key) => [v].flat().map((s) => status(s, key))) } },
  remove_completed_items: { fields: {} },
};

/** A to-do service on one list, as todo/services.py and local_todo/todo.py do it. */
function serve(list: TodoList, service: string, data: Record<string, unknown>): void {
  const find = (value: unknown): ModelItem => {
    const item = list.items.find((i) => i.uid === value || i.summary === value);
    if (item === undefined) throw new ServiceError(`Unable to find To-do item '${String(value)}'`);
    return item;
  };
  const fields = (item: Partial<ModelItem>): void => {
    if ('due_date' in data) setOrClear(item, 'due', data.due_date);
    if ('due_datetime' in data) setOrClear(item, 'due', data.due_datetime);
    if ('description' in data) setOrClear(item, 'description', data.description);
  };
  if (service === 'add_item') {
    const item: ModelItem = { uid: randomUUID(), summary: String(data.item), status: 'needs_action' };
    fields(item);
    list.items.push(item);
  } else if (service === 'update_item') {
    const item = find(data.item);
    if (data.rename !== undefined) item.summary = String(data.rename);
    if (data.status !== undefined) item.status = data.status as ModelItem['status'];
    fields(item);
  } else if (service === 'remove_item') {
    const uids = [data.item].flat().map((value) => find(value).uid);
    list.items = list.items.filter((i) => !uids.includes(i.uid));
  } else if (service === 'remove_completed_items') list.items = list.items.filter((i) => i.status !== 'completed');
}

function setOrClear(item: Partial<ModelItem>, key: 'due' | 'description', value: unknown): void {
  if (value === null) delete item[key];
  else item[key] = String(value);
}

/** The body as a JSON object (RequestDataValidator); anything else is refused with Home Assistant's words. */
function jsonObject(body: string, notJson: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = body === '' ? null : JSON.parse(body);
  } catch {
    throw new Answer(400, { message: notJson });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Answer(400, { message: 'Message format incorrect: expected dict' });
  return value as Record<string, unknown>;
}

/** remote_calendar/client.py and ics.py: the calendar feed fetched (redirects followed), its status and its calendar read strictly. */
async function fetchCalendar(address: string): Promise<string | undefined> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(address, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
    body = await response.text();
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timeout_connect' : 'cannot_connect';
  }
  if (response.status === 403) return 'forbidden';
  if (!response.ok) return 'cannot_connect';
  try {
    const calendar = new ICAL.Component(ICAL.parse(body));
    if (calendar.name !== 'vcalendar' || !calendar.hasProperty('prodid') || !calendar.hasProperty('version')) return 'invalid_ics_file';
  } catch {
    return 'invalid_ics_file';
  }
  return undefined;
}

/** The protocol version Home Assistant's MCP client (the MCP Python SDK) asks for first. */
const MCP_PROTOCOL = '2025-06-18';

/**
 * What mcp_client does before a flow may make its entry: `initialize` over Streamable HTTP (a POST of one
 * JSON-RPC request, accepting JSON or an event stream), `notifications/initialized` in the session the
 * server named, and the session ended with a DELETE. The server's name and whether it has tools; 401; or
 * the form's error (cannot_connect, timeout_connect).
 */
async function initializeMcp(url: string): Promise<{ name: string; tools: boolean } | 401 | string> {
  try {
    const opened = await openMcpSession(url);
    if (typeof opened === 'number') return opened === 401 ? 401 : 'cannot_connect';
    const result = opened.result as { serverInfo?: { name?: unknown }; capabilities?: { tools?: unknown } } | undefined;
    if (typeof result?.serverInfo?.name !== 'string') return 'cannot_connect';
    if (opened.session !== undefined) await (await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': opened.session } })).text();
    return { name: result.serverInfo.name, tools: result.capabilities?.tools !== undefined };
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timeout_connect' : 'cannot_connect';
  }
}

/** A POST of one JSON-RPC message to an MCP server, in a session when it named one, as the Python SDK's client sends it. */
function mcpPost(url: string, body: unknown, session?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': MCP_PROTOCOL } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

/** `initialize`, then `notifications/initialized` in the session the server named: its result and session, or the HTTP status refusing it. */
async function openMcpSession(url: string): Promise<{ result: unknown; session: string | undefined } | number> {
  const params = { protocolVersion: MCP_PROTOCOL, capabilities: {}, clientInfo: { name: 'mcp', version: '0.1.0' } };
  const response = await mcpPost(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params });
  if (!response.ok) return response.status;
  const answer = jsonRpcAnswer(response.headers.get('content-type') ?? '', await response.text(), 0);
  const session = response.headers.get('mcp-session-id') ?? undefined;
  await (await mcpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  return { result: answer?.result, session };
}

/** One request in a session of its own, as the mcp integration opens one for each listing and each call. */
async function mcpSession(url: string, method: string, params: unknown): Promise<unknown> {
  const opened = await openMcpSession(url);
  if (typeof opened === 'number') throw new Error(`initialize: HTTP ${opened}`);
  const response = await mcpPost(url, { jsonrpc: '2.0', id: 1, method, params }, opened.session);
  const answer = jsonRpcAnswer(response.headers.get('content-type') ?? '', await response.text(), 1);
  if (answer?.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer?.result;
}

/**
 * A tool's input schema as the conversation agent's parameters (name: type), converted as voluptuous_openapi
 * converts it for Home Assistant's LLM API: an object of properties, each a string (or an enum of strings), an
 * integer, a number or a boolean. Anything else fails the conversion, and with it the whole tool listing.
 */
function convertSchema(tool: string, schema: unknown): Record<string, string> {
  const object = schema as { type?: unknown; properties?: Record<string, { type?: unknown; enum?: unknown }>; required?: unknown };
  if (object?.type !== 'object') throw new Error(`${tool}: its input schema is not an object`);
  const parameters: Record<string, string> = {};
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    if (Array.isArray(property.enum) && property.enum.every((v) => typeof v === 'string')) parameters[name] = `enum(${property.enum.join('|')})`;
    else if (typeof property.type === 'string' && ['string', 'integer', 'number', 'boolean'].includes(property.type))
      parameters[name] = property.type;
    else throw new Error(`${tool}: ${name}'s schema cannot be converted (${JSON.stringify(property)})`);
  }
  if (object.required !== undefined && !(Array.isArray(object.required) && object.required.every((r) => r in parameters)))
    throw new Error(`${tool}: required names a parameter it does not have`);
  return parameters;
}

/** The JSON-RPC answer of that id: the body itself (application/json), or the `data:` of an event stream's message. */
function jsonRpcAnswer(type: string, body: string, id: number): { result?: unknown; error?: unknown } | undefined {
  const messages = type.startsWith('text/event-stream')
    ? body
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
    : [body];
  for (const text of messages) {
    try {
      const message = JSON.parse(text) as { id?: unknown; result?: unknown; error?: unknown };
      if (message.id === id) return message;
    } catch {
      // Not JSON: not the answer.
    }
  }
  return undefined;
}

function formJson(flow_id: string, handler: string, step_id: string, errors: Record<string, string> | null): Record<string, unknown> {
  const fields = Object.keys(STEP_SCHEMAS[handler as keyof typeof STEP_SCHEMAS]).map((name) => ({
    name,
    type: name === 'verify_ssl' ? 'boolean' : 'string',
  }));
  return { type: 'form', flow_id, handler, step_id, data_schema: fields, errors, description_placeholders: null, last_step: null, preview: null };
}

function createJson(entry: ModelEntry): Record<string, unknown> {
  return {
    type: 'create_entry',
    title: entry.title,
    description: null,
    version: 1,
    minor_version: 1,
    options: {},
    subentries: [],
    result: entryJson(entry),
  };
}

/** config_entries.py ConfigEntry.as_json_fragment: never the entry's data. */
function entryJson(e: ModelEntry): Record<string, unknown> {
  return {
    created_at: 0,
    entry_id: e.entry_id,
    domain: e.domain,
    modified_at: 0,
    title: e.title,
    source: 'user',
    state: 'loaded',
    supports_options: false,
    supports_remove_device: false,
    supports_unload: true,
    supports_reconfigure: false,
    supported_subentry_types: {},
    pref_disable_new_entities: false,
    pref_disable_polling: false,
    disabled_by: null,
    reason: null,
    error_reason_translation_key: null,
    error_reason_translation_placeholders: null,
    num_subentries: 0,
  };
}

const CYRILLIC: Record<string, string> = Object.fromEntries(
  'а:a б:b в:v г:g ґ:g д:d е:e є:ie ж:zh з:z и:i і:i ї:i й:i к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh ц:ts ч:ch ш:sh щ:shch ь: ю:iu я:ia'
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** homeassistant.util.slugify (python-slugify with unidecode, `_`): letters made Latin, the rest underscores; empty is "unknown". */
function slugify(text: string): string {
  const latin = [...text.toLowerCase().replace(/ł/g, 'l')]
    .map((c) => CYRILLIC[c] ?? c)
    .join('')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return latin.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'unknown';
}
