// Where the broker's address came from, so that advice about an unreachable broker points at the place a
// person can change it: the config file's `mqtt.url`, the environment (Compose's DZIENNIK2MQTT_MQTT_URL),
// the app's form (`mqtt_url`), or the Supervisor's MQTT service (the Mosquitto broker app).

export type BrokerOrigin = 'file' | 'env' | 'form' | 'supervisor';

/** Where the address is set, as the English log names it (the log is read in bug reports). */
export const BROKER_SETTING: Readonly<Record<BrokerOrigin, string>> = {
  file: 'mqtt.url',
  env: 'DZIENNIK2MQTT_MQTT_URL',
  form: "mqtt_url in the add-on's options",
  supervisor: "the address the Supervisor gave (the Mosquitto broker add-on; mqtt_url in the add-on's options overrides it)",
};
