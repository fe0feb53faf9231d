// A data folder a development version wrote before the first release is refused, not upgraded
// (src/app/unreleased-data.ts): each form no release writes is named with its file, the folder is named with
// what to do, and nothing else counts as such a folder: not what this version writes, not a file merely broken
// (that one is moved aside by the part reading it, util/stored.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseUnreleasedData, UnreleasedDataError } from '../../../src/app/unreleased-data.js';
import { tempDir } from '../../helpers/temp.js';

/** A data folder holding these files (path in data_dir -> content; an object is written as JSON). */
async function folder(files: Record<string, unknown>): Promise<string> {
  const dataDir = await tempDir();
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(dataDir, file)), { recursive: true });
    await writeFile(join(dataDir, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dataDir;
}

/** What the refusal says of a folder's files, or undefined when it starts. */
async function refusal(dataDir: string): Promise<UnreleasedDataError | undefined> {
  return refuseUnreleasedData(dataDir).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof UnreleasedDataError) return error;
      throw error;
    },
  );
}

/** An event waiting as a development version left it (no id, its child unnamed). */
const grade = { kind: 'grade', payload: { event_type: 'grade', id: 'g2' } };
/** The same event as this version leaves it waiting: its id, its child named, its packet on its way. */
const waiting = { kind: 'grade', id: 'e2', payload: { event_type: 'grade', child: 'ania', child_name: 'Ania', id: 'g2' } };
const sent = { key: 'k', message: 'sick', kind: 'fixed', topic: 'Nieobecność', at: 1, state: 'sent' };

describe('a data folder of a development version', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['its events in the MQTT session', { 'mqtt-session.json': { base_topic: 'd', packets: [], handed: ['e1'] } }, 'mqtt-session.json'],
    ['its client id in the MQTT session', { 'mqtt-session.json': { client_id: 'dziennik2mqtt_0badcafe' } }, 'mqtt-session.json'],
    ['an event memory of ids alone', { 'seen/ania.json': { grade: ['g1'] } }, 'seen/ania.json'],
    ['an event memory without its outbox', { 'seen/ania.json': { ids: { grade: ['g1'] }, records: {} } }, 'seen/ania.json'],
    [
      'an event waiting without an id, in a last good copy',
      { 'seen/ania.last-good.json': { ids: {}, records: {}, outbox: [grade] } },
      'seen/ania.last-good.json',
    ],
    [
      'behaviour entries remembered as grades',
      { 'seen/ania.json': { ids: { grade: ['behaviour:1'] }, records: { grade: { 'behaviour:1': { v: { grade: 'bdb' } } } }, outbox: [] } },
      'seen/ania.json',
    ],
    [
      'a send noted without its topic',
      { 'messages/1234567u-sent.json': { version: 2, entries: [{ ...sent, topic: undefined }] } },
      'messages/1234567u-sent.json',
    ],
    [
      'a send of the first journal, without its kind',
      { 'messages/1234567u-sent.json': { version: 1, entries: [{ ...sent, kind: undefined }] } },
      'messages/1234567u-sent.json',
    ],
  ])('is refused for %s, the file and the folder named with what to do', async (_what, files, file) => {
    const dataDir = await folder(files);
    const error = await refusal(dataDir);
    expect(error?.found.map((f) => f.file)).toEqual([file]);
    expect(error?.message).toContain(`data_dir ${dataDir} was written by a development version`);
    expect(error?.message).toContain(`${file} (`);
    expect(error?.message).toContain('move the folder away');
  });

  it('names every such file at once', async () => {
    const dataDir = await folder({
      'mqtt-session.json': { packets: [] },
      'seen/ania.json': { grade: ['g1'] },
      'seen/olek.json': { ids: {}, records: {}, outbox: [] },
    });
    expect((await refusal(dataDir))?.found).toEqual([
      { file: 'mqtt-session.json', what: 'the MQTT session holds events on their way or the client id' },
      { file: 'seen/ania.json', what: 'an event memory of ids alone' },
    ]);
  });
});

describe('a data folder this version reads', () => {
  it('starts: what this version writes, an emptied memory, a missing folder', async () => {
    const dataDir = await folder({
      'mqtt-session.json': { base_topic: 'dziennik2mqtt', discovery_prefix: 'homeassistant' },
      'seen/ania.json': {
        ids: { grade: ['grade:1', 'grade:2'], behaviour_grade: ['behaviour:1'] },
        records: { grade: { 'grade:1': { v: { grade: '5' } } } },
        outbox: [{ ...waiting, packet: { id: 7, topic: 't', released: false } }],
      },
      'seen/olek.json': {},
      'messages/1234567u-sent.json': { version: 2, entries: [sent] },
    });
    expect(await refusal(dataDir)).toBeUndefined();
    expect(await refusal(join(dataDir, 'not-made-yet'))).toBeUndefined();
  });

  it('starts with files merely broken: those are moved aside by the part that reads them', async () => {
    const dataDir = await folder({
      'mqtt-session.json': '{"base_topic":"dzie',
      'seen/ania.json': '',
      'seen/olek.json': 'not json',
      'seen/ewa.json': '[["g1"]]',
      'messages/1234567u-sent.json': '{"version":2,"entries":[{"key":',
    });
    await mkdir(join(dataDir, 'seen', 'zosia.json'));
    expect(await refusal(dataDir)).toBeUndefined();
  });
});
