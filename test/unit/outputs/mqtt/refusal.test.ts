// A broker's refusal named by its reason code (interface 19.2): the log says a quota is a quota (not an ACL),
// and the bridge's own `problem` comes on only for what the family must fix (its ACL, a topic name, a size limit).
import { describe, expect, it } from 'vitest';
import { BrokerConnection, type ConnectionParts } from '../../../../src/outputs/mqtt/connection.js';
import type { MqttConfig } from '../../../../src/config/schema.js';
import { LogSink } from '../../../helpers/faults.js';

function connection() {
  const logs = new LogSink();
  const problems: Array<[string, string]> = [];
  const options = { mqtt: {} as MqttConfig, log: logs.logger('info'), onRefused: (topic: string, reason: string) => problems.push([topic, reason]) };
  return { logs, problems, broker: new BrokerConnection(options, {} as ConnectionParts) };
}

const said = (logs: LogSink): string[] => logs.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);

describe("a broker's refusal", () => {
  it('a quota exceeded is logged as a quota, and turns no problem on', () => {
    const { logs, problems, broker } = connection();
    broker.refused('d2m/ania/event/grade', 0x97);
    expect(said(logs)).toEqual([expect.stringMatching(/^the MQTT broker refused this topic: quota exceeded/)]);
    expect(said(logs)[0]).not.toMatch(/ACL/);
    expect(problems).toEqual([]);
  });

  it('not authorized, a topic name invalid and a packet too large are the family’s to fix, each by its own name', () => {
    const { logs, problems, broker } = connection();
    broker.refused('d2m/bridge/health', 0x87);
    broker.refused('d2m/bad+topic', 0x90);
    broker.refused('homeassistant/sensor/x/config', 0x95);
    broker.refused('d2m/ania/event/grade', 0x80);
    expect(said(logs)).toEqual([
      expect.stringContaining(': not authorized (its ACL'),
      expect.stringContaining(': topic name invalid'),
      expect.stringContaining(': packet too large'),
      expect.stringContaining(': refused (reason code 0x80)'),
    ]);
    expect(problems).toEqual([
      ['d2m/bridge/health', 'broker_refused'],
      ['d2m/bad+topic', 'broker_topic_invalid'],
      ['homeassistant/sensor/x/config', 'broker_packet_too_large'],
      ['d2m/ania/event/grade', 'broker_refused'],
    ]);
  });
});
