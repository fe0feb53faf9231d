// Text from outside (the portal, files in data_dir) made safe to pass on: no control characters, which
// could add lines to a calendar feed or a log, break a device name or hide text. A newline stays where
// a text may have one (a notice, a message); a name is one line.

/** C0 controls but tab and line feed, DEL, and the C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * A text without control characters: CR LF and a lone CR become a line feed, a tab a space, the rest
 * (NUL, ESC, the C1 range...) go. Line feeds stay.
 */
export function stripControls(text: string): string {
  if (text.search(CONTROLS) === -1 && !text.includes('\t')) return text;
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROLS, '');
}

/** One line: stripControls, then every line break (also U+2028, U+2029) a single space. */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s*[\n\u2028\u2029]+\s*/g, ' ');
}

/** A login or an e-mail cut to a hint for a bug report: "1234567u" -> "12…u"; a short one gives nothing away. */
export function hint(value: string): string {
  return value.length <= 4 ? '…' : `${value.slice(0, 2)}…${value.slice(-1)}`;
}

/** What an error says, for a log line or a message (whatever was thrown). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The value a JSON text holds; undefined when it is not JSON (no JSON text holds undefined). */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
