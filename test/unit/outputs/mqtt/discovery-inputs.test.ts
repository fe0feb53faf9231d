// The entities a family sends through (interface 7.2): the open button, the reply and write notify
// entities, the recipient select and the message topic text, as Home Assistant's MQTT discovery
// takes them. The rules restate what HA's mqtt/notify.py, select.py and text.py require of a
// discovered component (command_topic; a select's options; a text's max within 255 and its mode).
import { describe, expect, it } from 'vitest';
import { childDiscovery, type DiscoveryContext } from '../../../../src/outputs/mqtt/discovery.js';
import { accountEntities } from '../../../../src/features/index.js';
import { recipientSelect } from '../../../../src/features/message-write/message-write.js';
import { TEXT_TEMPLATE } from '../../../../src/features/opened-message/opened-message.js';
import type { AccountConfig } from '../../../../src/config/schema.js';

const ctx: DiscoveryContext = { baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: '1.2.3', language: 'en' };
const account = (write: boolean): AccountConfig => ({ login: '1234567u', downloads: false, write_messages: write, messages: [] });
const availability = [{ topic: 'dziennik2mqtt/bridge/state' }, { topic: 'dziennik2mqtt/ania/availability' }];
const OPTIONS = ['Matematyka – Piotr Wiśniewski', 'Wychowawca – Anna Nowak'];

type Components = Record<string, Record<string, unknown>>;
const components = (write: boolean): Components =>
  childDiscovery({ id: 'ania', name: 'Ania', entities: [...accountEntities(account(write)), ...(write ? [recipientSelect(OPTIONS)] : [])] }, ctx)
    .payload.cmps as Components;

/** What Home Assistant refuses in a discovered component of these platforms (empty: it takes it). */
function haProblems(c: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const topic = (key: string): void => {
    const t = c[key];
    if (typeof t !== 'string' || t === '' || /[+#]/.test(t)) problems.push(`${key} must be a publish topic`);
  };
  if (typeof c.unique_id !== 'string') problems.push('unique_id missing');
  if (typeof c.default_entity_id !== 'string' || !c.default_entity_id.startsWith(`${String(c.p)}.`))
    problems.push('default_entity_id not of its platform');
  switch (c.p) {
    case 'button':
      topic('command_topic');
      break;
    case 'notify':
      topic('command_topic');
      if (c.command_template !== undefined && typeof c.command_template !== 'string') problems.push('command_template must be a template');
      break;
    case 'select':
      topic('command_topic');
      if (!Array.isArray(c.options) || c.options.length === 0 || c.options.some((o) => typeof o !== 'string'))
        problems.push('options must be a list of strings');
      if (Array.isArray(c.options) && new Set(c.options).size !== c.options.length) problems.push('options must be unique');
      break;
    case 'text':
      topic('command_topic');
      if (typeof c.max !== 'number' || c.max > 255 || c.max < 1) problems.push('max must be 1..255');
      if (c.mode !== undefined && c.mode !== 'text' && c.mode !== 'password') problems.push('mode must be text or password');
      break;
  }
  return problems;
}

describe('discovery of the message entities', () => {
  it('announces the open button and the opened message for every child', () => {
    const cmps = components(false);
    expect(cmps.open_message).toEqual({
      p: 'button',
      unique_id: 'dziennik2mqtt_ania_open_message',
      default_entity_id: 'button.ania_open_message',
      name: 'Open newest message (marks it read)',
      icon: 'mdi:email-open',
      availability,
      availability_mode: 'all',
      command_topic: 'dziennik2mqtt/ania/open_message/set',
      payload_press: 'newest',
    });
    expect(cmps.opened_message).toMatchObject({ p: 'sensor', json_attributes_topic: 'dziennik2mqtt/ania/opened_message/attributes' });
  });

  it('announces reply, write, recipient and message_topic only with write_messages', () => {
    for (const key of ['reply', 'write', 'recipient', 'message_topic']) expect(components(false), key).not.toHaveProperty(key);
    const cmps = components(true);
    expect(cmps.reply).toEqual({
      p: 'notify',
      unique_id: 'dziennik2mqtt_ania_reply',
      default_entity_id: 'notify.ania_reply',
      name: 'Reply to the opened message',
      icon: 'mdi:reply',
      availability,
      availability_mode: 'all',
      command_topic: 'dziennik2mqtt/ania/reply/set',
      command_template: TEXT_TEMPLATE,
    });
    expect(cmps.write).toMatchObject({ p: 'notify', command_topic: 'dziennik2mqtt/ania/write/set', command_template: TEXT_TEMPLATE });
    expect(cmps.recipient).toMatchObject({
      p: 'select',
      default_entity_id: 'select.ania_recipient',
      state_topic: 'dziennik2mqtt/ania/recipient',
      command_topic: 'dziennik2mqtt/ania/recipient/set',
      options: OPTIONS,
    });
    expect(cmps.message_topic).toMatchObject({
      p: 'text',
      default_entity_id: 'text.ania_message_topic',
      state_topic: 'dziennik2mqtt/ania/message_topic',
      command_topic: 'dziennik2mqtt/ania/message_topic/set',
      max: 255,
      mode: 'text',
    });
  });

  it("passes Home Assistant's rules for every component, old platforms and new", () => {
    const cmps = components(true);
    for (const [key, c] of Object.entries(cmps)) expect(haProblems(c), key).toEqual([]);
    // The rules are not empty words: each refuses what HA refuses.
    expect(haProblems({ ...cmps.recipient, options: [] })).toEqual(['options must be a list of strings']);
    expect(haProblems({ ...cmps.message_topic, max: 4000 })).toEqual(['max must be 1..255']);
    expect(haProblems({ ...cmps.reply, command_topic: 'dziennik2mqtt/+/reply/set' })).toEqual(['command_topic must be a publish topic']);
  });
});
