// Reading what the login's POSTs answer (live-notes 13, 18, 19): a success, a refusal with its words,
// or something the bridge does not know. Only words about the login, the password or the account make
// a refusal a wrong password; anything else is a changed login, never a false "wrong password".

export type LoginAnswer =
  | { kind: 'ok'; goTo?: string }
  | { kind: 'refused'; words?: string; aboutCredentials: boolean }
  | { kind: 'unknown'; what: string };

/** The most of a refusal's words kept: enough for any sentence a login page shows. */
const MAX_WORDS = 300;

/**
 * Words that speak of the login, the password or a locked account (Polish and English, with and
 * without diacritics): "Nieprawidłowy login i/lub hasło", "Konto zostało zablokowane", "Invalid password".
 */
const ABOUT_CREDENTIALS = /login|has(ł|l)|password|konto|konta|account|zablokow|blokad|locked|credential|u(ż|z)ytkownik/i;

export const CAPTCHA_MARKERS = /captcha|recaptcha|g-recaptcha|hcaptcha/i;
export const REQUIRED_ACTIONS_MARKER = /requiredActions/;

/** A POST's answer: `status: "ok"` (goTo optional), `status: "error"` with its words, or unknown. */
export function readLoginAnswer(text: string): LoginAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unknown', what: 'the answer is not JSON' };
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { kind: 'unknown', what: 'the answer is not a JSON object' };
  const { status, goTo, errors } = json as { status?: unknown; goTo?: unknown; errors?: unknown };
  const next = typeof goTo === 'string' && goTo !== '' ? goTo : undefined;
  // The spec's form carries goTo beside status ok; an answer with a goTo alone is read as it was.
  if (status === 'ok' || (status === undefined && next !== undefined)) return next === undefined ? { kind: 'ok' } : { kind: 'ok', goTo: next };
  if (status !== 'error') return { kind: 'unknown', what: status === undefined ? 'the answer has no status' : 'the answer has an unknown status' };
  const words = wordsOf(errors);
  return { kind: 'refused', aboutCredentials: words !== undefined && ABOUT_CREDENTIALS.test(words), ...(words === undefined ? {} : { words }) };
}

/** The words of `errors`: each item a string or an object {message} (live-notes 13), tags dropped. */
function wordsOf(errors: unknown): string | undefined {
  const items = Array.isArray(errors) ? errors : errors === undefined ? [] : [errors];
  const said = items
    .map((item: unknown) =>
      typeof item === 'string' ? item : item && typeof item === 'object' ? (item as { message?: unknown }).message : undefined,
    )
    .filter((m): m is string => typeof m === 'string' && m.trim() !== '')
    .map((m) =>
      m
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  const words = [...new Set(said)].join(' ').slice(0, MAX_WORDS);
  return words === '' ? undefined : words;
}
