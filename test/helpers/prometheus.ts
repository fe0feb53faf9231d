// A small parser of Prometheus' text exposition format (version 0.0.4), for tests: every sample with
// its name, labels and value, and the TYPE of every family. It reads the format (comments, label
// values with escapes, NaN and +Inf), so a test asserts on what a scraper would read, not on a regex
// over the text; a line it cannot read throws, naming it.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the sample with this name and exactly these labels (undefined when absent). */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

export function parsePrometheus(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  text.split('\n').forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1} of the metrics: ${why}: ${line}`);
    };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const [, keyword, name, rest] = /^#\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line) ?? [];
      if (keyword === 'TYPE' && name !== undefined) {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest ?? '')) fail('unknown type');
        if (types.has(name)) fail('a second TYPE for one family');
        types.set(name, rest ?? '');
      }
      return;
    }
    let at = 0;
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) fail('no metric name');
    const name = nameMatch![0];
    at = name.length;
    const labels: Record<string, string> = {};
    if (line[at] === '{') {
      at++;
      while (line[at] !== '}') {
        const key = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(at))?.[0];
        if (key === undefined) fail('a label without a name');
        at += key!.length;
        if (line[at] !== '=' || line[at + 1] !== '"') fail('a label without ="');
        at += 2;
        let value = '';
        for (;;) {
          const c = line[at];
          if (c === undefined) fail('an unterminated label value');
          if (c === '"') break;
          if (c === '\\') {
            const next = line[at + 1];
            value += next === 'n' ? '\n' : next === '\\' ? '\\' : next === '"' ? '"' : fail('a bad escape');
            at += 2;
            continue;
          }
          value += c;
          at++;
        }
        at++;
        if (key! in labels) fail('a label given twice');
        labels[key!] = value;
        if (line[at] === ',') at++;
        else if (line[at] !== '}') fail('labels not separated by a comma');
      }
      at++;
    }
    const [valueText, timestamp, extra] = line.slice(at).trim().split(/\s+/);
    if (valueText === undefined || extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) fail('not "value [timestamp]"');
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : valueText === 'NaN' ? NaN : Number(valueText);
    if (Number.isNaN(value) && valueText !== 'NaN') fail('a value that is not a number');
    samples.push({ name, labels, value });
  });
  const same = (a: Record<string, string>, b: Record<string, string>): boolean =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
  return {
    types,
    samples,
    value: (name, labels = {}) => samples.find((s) => s.name === name && same(s.labels, labels))?.value,
  };
}
