// Home Assistant core's MQTT update entity, modelled from its source for the tests (our words, not its code):
// homeassistant/components/mqtt/update.py takes each payload of the state topic in turn, and
// homeassistant/components/update/__init__.py (`UpdateEntity.state`) computes the state from what it holds.
// - A payload empty or `{}` is ignored. One that is not JSON is the installed version. A JSON object sets
//   `installed_version` and `latest_version` when it has the key, whatever the value (null included).
// - No state (the frontend's "unknown") while either version is null; `off` when the two are equal; else `on` when
//   the latest is newer, or when the two cannot be compared (core's AwesomeVersion; here: dotted numbers with an
//   optional pre-release part, compared as SemVer does), `off` when it is older.

export type UpdateState = 'on' | 'off' | undefined;

/** What the entity holds after the payloads of its state topic, in the order they came. */
export function updateEntityHolds(payloads: readonly string[]): { installed: unknown; latest: unknown } {
  const held: { installed: unknown; latest: unknown } = { installed: null, latest: null };
  for (const payload of payloads) {
    if (payload === '' || payload === '{}') continue;
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      held.installed = payload;
      continue;
    }
    if (typeof json !== 'object' || json === null) continue;
    if ('installed_version' in json) held.installed = json.installed_version;
    if ('latest_version' in json) held.latest = json.latest_version;
  }
  return held;
}

/** The entity's state after the payloads of its state topic, as core computes it. */
export function updateEntityState(payloads: readonly string[]): UpdateState {
  const { installed, latest } = updateEntityHolds(payloads);
  if (installed === null || installed === undefined || latest === null || latest === undefined) return undefined;
  if (latest === installed) return 'off';
  const order = compareVersions(String(latest), String(installed));
  return order === undefined || order > 0 ? 'on' : 'off';
}

/** Above 0 when a is newer than b, below when older; undefined when either is not a version this model reads. */
function compareVersions(a: string, b: string): number | undefined {
  const [pa, pb] = [parseVersion(a), parseVersion(b)];
  if (!pa || !pb) return undefined;
  for (let i = 0; i < Math.max(pa.parts.length, pb.parts.length); i++) {
    const d = (pa.parts[i] ?? 0) - (pb.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  // A release is newer than its pre-release; two pre-releases compare as text.
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === undefined) return 1;
  if (pb.pre === undefined) return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

function parseVersion(text: string): { parts: number[]; pre: string | undefined } | undefined {
  const match = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?$/.exec(text);
  return match ? { parts: match[1]!.split('.').map(Number), pre: match[2] } : undefined;
}
