// How large a message the bridge reads, per topic, checked before a byte is decoded: a publish of tens
// of megabytes from any client of the broker must not reach the 64 MB heap as a string or a parse.
// Commands and bridge requests: features/kit/commands.ts (1 KB).

/** Home Assistant's birth and last will: `online` or `offline`. */
export const MAX_STATUS_BYTES = 64;

/**
 * A device config the bridge left retained (read at start to remove stale children): the simulator's
 * Ania, every entity and her subjects, is 23 KB; this leaves room for twenty times that.
 */
export const MAX_DEVICE_CONFIG_BYTES = 512 * 1024;

/**
 * The largest packet the bridge takes, told to the broker in CONNECT (MQTT 5 `maximumPacketSize`): the
 * broker then drops anything larger for this client instead of sending it. The largest thing read is a
 * device config; a little room is left for the topic and the packet's own header.
 */
export const MAX_PACKET_BYTES = MAX_DEVICE_CONFIG_BYTES + 16 * 1024;
