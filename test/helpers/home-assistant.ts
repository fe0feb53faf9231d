// Home Assistant's REST API as the bridge calls it, modelled from Home Assistant core's source: the model
// lives in src/bench/home-assistant.ts because the bench counts the calls against it too (as the fake clock).
export { HomeAssistantModel, type ModelItem, type Outage } from '../../src/bench/home-assistant.js';
