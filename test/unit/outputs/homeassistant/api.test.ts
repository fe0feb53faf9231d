// The bridge's client of Home Assistant's REST API against the model of it, and the model held to what
// Home Assistant's source does: a token or 401, a flow's step refusing an unknown field, Remote Calendar
// fetching the calendar feed it is given, the to-do services' fields and errors.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HomeAssistantApi, HomeAssistantError } from '../../../../src/outputs/homeassistant/client.js';
import { HomeAssistantModel } from '../../../helpers/home-assistant.js';

const TOKEN = 'model-token-Kp2x9Qm4Rt7w';
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';

let ha: HomeAssistantModel;
let calendarFeeds: Server;
let calendarFeedBase = '';
/** What the calendar feed server answers at /<status>.ics: that status, an iCalendar with 200 (`/text.ics`: a page that is none). */
beforeAll(async () => {
  calendarFeeds = createServer((req, res) => {
    const status = Number(/\/(\d+)\.ics/.exec(req.url ?? '')?.[1] ?? 200);
    res.writeHead(status, { 'content-type': 'text/calendar' });
    res.end(req.url?.startsWith('/text') ? '<html>not a calendar</html>' : ICS);
  });
  await new Promise<void>((resolve) => calendarFeeds.listen(0, '127.0.0.1', resolve));
  calendarFeedBase = `http://127.0.0.1:${(calendarFeeds.address() as AddressInfo).port}`;
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
});
afterAll(async () => {
  await ha.stop();
  await new Promise((resolve) => calendarFeeds.close(resolve));
});
beforeEach(() => {
  ha.outage = undefined;
  for (const entry of [...ha.entries]) ha.familyDeletes(entry.title);
});

const api = (token = TOKEN) => new HomeAssistantApi({ url: ha.url, token });
const fault = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof HomeAssistantError ? [error.fault, error.status, error.message] : error),
  );

describe("Home Assistant's API", () => {
  it('refuses a wrong token with 401, and says a failing or absent Home Assistant apart', async () => {
    expect(await fault(api('wrong-token').entries())).toEqual(['unauthorized', 401, 'GET /api/config/config_entries/entry: HTTP 401']);
    ha.outage = 500;
    expect((await fault(api().entries())) as unknown[]).toEqual(expect.arrayContaining(['server_error', 500]));
    ha.outage = 'away';
    expect(((await fault(api().entries())) as unknown[])[0]).toBe('unreachable');
  });

  it('makes a Remote Calendar only of a calendar feed it could fetch and read, once per name and address, and refuses a field it does not ask for', async () => {
    const make = (name: string, url: string) => api().makeEntry('remote_calendar', { calendar_name: name, url });
    expect(await make('A', `${calendarFeedBase}/503.ics`)).toEqual({ errors: 'cannot_connect' });
    expect(await make('A', `${calendarFeedBase}/403.ics`)).toEqual({ errors: 'forbidden' });
    expect(await make('A', `${calendarFeedBase}/text.ics`)).toEqual({ errors: 'invalid_ics_file' });
    expect(await make('A', 'http://127.0.0.1:1/none.ics')).toEqual({ errors: 'cannot_connect' });
    expect(ha.entries).toEqual([]);
    const made = await make('Zofia – lekcje', `${calendarFeedBase}/200.ics`);
    expect(made).toMatchObject({ made: { domain: 'remote_calendar', title: 'Zofia – lekcje' } });
    expect(await make('Zofia – lekcje', `${calendarFeedBase}/200.ics?other`)).toEqual({ aborted: 'already_configured' });
    expect(await make('Another name', `${calendarFeedBase}/200.ics`)).toEqual({ aborted: 'already_configured' });
    const refused = await fault(api().makeEntry('remote_calendar', { calendar_name: 'B', url: `${calendarFeedBase}/200.ics`, colour: 'red' }));
    expect(refused).toEqual(['refused', 400, expect.stringContaining("User input malformed: extra keys not allowed @ data['colour']")]);
    // The entries list never shows an entry's data (its address): the bridge remembers what it made.
    expect(Object.keys((await api().entries())[0] ?? {})).not.toContain('data');
  });

  it('makes a Local To-do list, finds its entity by name and keeps its items by the services', async () => {
    const client = api();
    expect(await client.makeEntry('local_todo', { todo_list_name: 'Łucja – zadania domowe' })).toMatchObject({
      made: { title: 'Łucja – zadania domowe' },
    });
    expect(await client.makeEntry('local_todo', { todo_list_name: 'Łucja – zadania domowe' })).toEqual({ aborted: 'already_configured' });
    const entity = await client.entityNamed('todo', 'Łucja – zadania domowe');
    expect(entity).toBe('todo.lucja_zadania_domowe');
    const list = { entity_id: entity };
    await client.todo('add_item', { ...list, item: 'Matematyka: Ułamki', due_date: '2026-11-20', description: 'Zadania 1–4.' });
    const [added] = await client.items(entity as string);
    expect(added).toEqual({
      uid: expect.any(String),
      summary: 'Matematyka: Ułamki',
      status: 'needs_action',
      due: '2026-11-20',
      description: 'Zadania 1–4.',
    });
    await client.todo('update_item', { ...list, item: added?.uid, due_date: '2026-11-23', description: null });
    expect(await client.items(entity as string)).toEqual([
      { uid: added?.uid, summary: 'Matematyka: Ułamki', status: 'needs_action', due: '2026-11-23' },
    ]);
    // Its errors: an unknown field, an item that is not there, both due fields, a blank summary; a read without ?return_response.
    expect(await fault(client.todo('add_item', { ...list, item: 'X', colour: 'red' }))).toEqual([
      'refused',
      400,
      'POST /api/services/todo/add_item: HTTP 400',
    ]);
    expect(((await fault(client.todo('update_item', { ...list, item: 'nope', rename: 'Y' }))) as unknown[])[0]).toBe('server_error');
    expect(((await fault(client.todo('remove_item', { ...list, item: ['nope'] }))) as unknown[])[0]).toBe('server_error');
    expect(
      ((await fault(client.todo('add_item', { ...list, item: 'X', due_date: '2026-11-20', due_datetime: '2026-11-20T10:00:00' }))) as unknown[])[0],
    ).toBe('refused');
    expect(((await fault(client.todo('add_item', { ...list, item: '   ' }))) as unknown[])[0]).toBe('refused');
    const plain = await fetch(`${ha.url}/api/services/todo/get_items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(list),
    });
    expect(plain.status).toBe(400);
    await client.todo('remove_item', { ...list, item: [added?.uid] });
    expect(await client.items(entity as string)).toEqual([]);
    // Deleted by the family: the list's items cannot be read, and its entry is no longer listed.
    ha.familyDeletes('Łucja – zadania domowe');
    expect(((await fault(client.items(entity as string))) as unknown[])[0]).toBe('server_error');
    expect(await client.entries()).toEqual([]);
  });

  it('deletes an entry once; a second delete finds none', async () => {
    const made = await api().makeEntry('local_todo', { todo_list_name: 'Jan – zadania domowe' });
    const id = 'made' in made ? made.made.entry_id : '';
    expect(await api().deleteEntry(id)).toBe(true);
    expect(await api().deleteEntry(id)).toBe(false);
  });
});
