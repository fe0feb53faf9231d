// The model of Home Assistant core's MQTT update entity (test/helpers/ha-update.ts), held to the cases its source
// decides: the update-entity tests read bridge/update through it, so it must say "unknown" where core does.
import { describe, expect, it } from 'vitest';
import { updateEntityState } from '../../../helpers/ha-update.js';

const payload = (installed: string | null, latest: string | null) => JSON.stringify({ installed_version: installed, latest_version: latest });

describe("Home Assistant's update entity, as core computes its state", () => {
  it('has no state while either version is null', () => {
    expect(updateEntityState([])).toBeUndefined();
    expect(updateEntityState([payload('0.2.0', null)])).toBeUndefined();
    expect(updateEntityState([payload(null, '0.2.0')])).toBeUndefined();
  });

  it('is off for the same version or an older one, on for a newer one or one it cannot compare', () => {
    expect(updateEntityState([payload('0.2.0-dev', '0.2.0-dev')])).toBe('off');
    expect(updateEntityState([payload('0.2.0-dev', '0.1.0')])).toBe('off');
    expect(updateEntityState([payload('0.2.0-dev', '0.2.0')])).toBe('on');
    expect(updateEntityState([payload('0.2.0-dev', '9.0.0')])).toBe('on');
    expect(updateEntityState([payload('0.2.0', 'a build')])).toBe('on');
  });

  it('keeps what an empty payload or one without a key leaves, and takes a plain text as the installed version', () => {
    expect(updateEntityState([payload('1.0.0', '1.0.0'), '', '{}'])).toBe('off');
    expect(updateEntityState([payload('1.0.0', '1.0.0'), JSON.stringify({ latest_version: null })])).toBeUndefined();
    expect(updateEntityState([payload('1.0.0', '2.0.0'), '2.0.0'])).toBe('off');
  });
});
