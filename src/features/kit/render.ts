// Turning what a school rule says into what Home Assistant shows: ON/OFF, a state within 255
// characters, a number as text, attributes under the recorder's limit (16 KB of JSON per state,
// live-notes 7: attributes over it are dropped by the recorder, so a long list is trimmed here instead).
// Features render with these; school/ never does.

/** Home Assistant rejects states longer than 255 characters. */
const MAX_STATE_LENGTH = 255;

/** A binary sensor's state. */
export function onOff(on: boolean): { state: 'ON' | 'OFF' } {
  return { state: on ? 'ON' : 'OFF' };
}

/** A text fit for a state: cut to 255 characters with an ellipsis; null stays unknown. */
export function stateText(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.length <= MAX_STATE_LENGTH ? text : `${text.slice(0, MAX_STATE_LENGTH - 1)}…`;
}

/**
 * A sensor's state and attributes, the attributes kept under the recorder's limit. They keep their
 * declared names: capAttributes only shortens lists and texts (and says so in `truncated`).
 */
export function withAttributes<A extends Record<string, unknown>>(state: string | number | null, attributes: A) {
  return { state: state === null ? null : String(state), attributes: capAttributes(attributes) as A };
}

/** The recorder's limit is 16384 bytes; a margin keeps us clear of it. */
const ATTRIBUTES_MAX_BYTES = 16_000;

/** The bytes of the value's JSON in UTF-8, counted without encoding it (JSON.stringify's text has no lone surrogate). */
function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * Trims the attributes to at most maxBytes of JSON. Lists are trimmed first, the biggest first, and
 * keep their first items: every list here is built newest (or nearest) first, so what goes is the
 * oldest or furthest. Then over-long texts are cut. When anything was cut, `truncated: true` and
 * `omitted` (how many items each list lost) say so. Only top-level lists and texts are touched.
 */
export function capAttributes(attrs: Record<string, unknown>, maxBytes: number = ATTRIBUTES_MAX_BYTES): Record<string, unknown> {
  if (byteSize(attrs) <= maxBytes) return attrs;
  const omitted: Record<string, number> = {};
  const out: Record<string, unknown> = { ...attrs, truncated: true, omitted };
  const fits = (): boolean => byteSize(out) <= maxBytes;

  const done = new Set<string>(['omitted']);
  while (!fits()) {
    const key = biggest(out, done, (v) => Array.isArray(v) && v.length > 0);
    if (key === undefined) break;
    done.add(key);
    const list = out[key] as unknown[];
    const keep = largestFitting(list.length, (n) => {
      out[key] = list.slice(0, n);
      omitted[key] = list.length - n;
      return fits();
    });
    out[key] = list.slice(0, keep);
    omitted[key] = list.length - keep;
  }

  while (!fits()) {
    const key = biggest(out, done, (v) => typeof v === 'string' && v.length > 1);
    if (key === undefined) break;
    done.add(key);
    const textValue = out[key] as string;
    const keep = largestFitting(textValue.length - 1, (n) => {
      out[key] = `${textValue.slice(0, n)}…`;
      return fits();
    });
    out[key] = `${textValue.slice(0, keep)}…`;
  }

  if (Object.keys(omitted).length === 0) delete out.omitted;
  // Nothing left to trim (a great many small keys): give up on the details rather than lose the state.
  return fits() ? out : { truncated: true };
}

/** The key of the biggest value `accept` takes, not in `skip`; of equals, the first (the sort is stable). */
function biggest(attrs: Record<string, unknown>, skip: Set<string>, accept: (v: unknown) => boolean): string | undefined {
  const sized = Object.entries(attrs)
    .filter(([key, value]) => !skip.has(key) && accept(value))
    .map(([key, value]) => ({ key, size: byteSize(value) }));
  return sized.sort((a, b) => b.size - a.size)[0]?.key;
}

/** The largest n in [0, max] for which test(n) holds, assuming it holds for all smaller n (0 if none). */
function largestFitting(max: number, test: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (test(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
