// What a broker's refusal of a publish or a subscription means (an MQTT 5 reason code of 0x80 or more, in a
// PUBACK, PUBREC or SUBACK), named in words of its own for the log, and whether it is the family's to fix: the
// bridge's own `problem` then says what to do. A quota exceeded is not: the bridge keeps within the broker's
// receive maximum (delivery.ts), and an event refused so waits for the next pass.
import type { BridgeProblemReason } from '../../i18n/problem-advice.js';

export interface Refusal {
  /** What the broker said, for the log. */
  words: string;
  /** The bridge's `problem`, when the family must fix something (the broker's ACL or limits, the topics' names). */
  problem?: Extract<BridgeProblemReason, 'broker_refused' | 'broker_topic_invalid' | 'broker_packet_too_large'>;
}

const REFUSALS: ReadonlyMap<number, Refusal> = new Map([
  [0x87, { words: 'not authorized (its ACL does not let the MQTT user of the config use this topic)', problem: 'broker_refused' }],
  [0x8f, { words: 'topic filter invalid', problem: 'broker_topic_invalid' }],
  [0x90, { words: 'topic name invalid', problem: 'broker_topic_invalid' }],
  [0x95, { words: 'packet too large (larger than its maximum packet size)', problem: 'broker_packet_too_large' }],
  [0x97, { words: 'quota exceeded (more publishes at once than it takes; an event refused so goes at the next pass)' }],
]);

/** The refusal a reason code names; another code of 0x80 or more is a refusal the broker did not explain. */
export function brokerRefusal(code: number): Refusal {
  return REFUSALS.get(code) ?? { words: `refused (reason code 0x${code.toString(16)})`, problem: 'broker_refused' };
}
