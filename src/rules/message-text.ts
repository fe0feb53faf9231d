// A whole message as a family reads it: the portal's Message (base64 of UTF-8, wrapped in
// <Message><Content><![CDATA[...]]>, its body HTML, spec 2.10) turned into plain text with its line
// breaks, its links as text with their real targets, and a length a Home Assistant attribute can hold.

/** The longest text kept (the attribute stays well under the bridge's 16 KB limit). */
const MESSAGE_TEXT_LIMIT = 8_000;

/** Query parameters a link proxy puts the real target in. */
const PROXY_PARAMS = ['url', 'u', 'link', 'target', 'redirect', 'to', 'href'];

/** Named entities a web editor writes in Polish text (ó is the one Polish letter with a name). */
const ENTITY_NAMES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  oacute: 'ó',
  Oacute: 'Ó',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  bdquo: '„',
  rdquo: '”',
  ldquo: '“',
  laquo: '«',
  raquo: '»',
};

export function decodeEntity(name: string): string | undefined {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return ENTITY_NAMES[name] ?? ENTITY_NAMES[name.toLowerCase()];
}

/** The decoded body of a full message (or of a list's preview): lenient UTF-8, the XML wrapper removed (the HTML stays). */
export function decodeMessage(base64: string): string {
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD/g, '');
  return decoded.replace(/^\s*<Message>\s*<Content>\s*<!\[CDATA\[/i, '').replace(/\]\]>\s*<\/Content>\s*<\/Message>\s*$/i, '');
}

/**
 * Plain text of a message's HTML: <br> and the ends of paragraphs, divs, list items and headings
 * become line breaks (at most one empty line in a row), a link becomes "label (target)", entities
 * are decoded, and the text is cut at `limit` characters.
 */
export function messageText(html: string, limit = MESSAGE_TEXT_LIMIT): { text: string; truncated: boolean } {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\r\n?|\n/g, ' ')
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attrs: string, inner: string) => linkText(attrs, inner))
    .replace(/<br\b[^>]*>/gi, '\n')
    .replace(/<\/?(p|div|li|ul|ol|h\d|tr|table|blockquote)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => decodeEntity(name) ?? whole)
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const chars = [...text];
  if (chars.length <= limit) return { text, truncated: false };
  return {
    text: `${chars
      .slice(0, limit - 1)
      .join('')
      .trimEnd()}…`,
    truncated: true,
  };
}

/** A link as text: its label, and its target when the label does not already say it. */
function linkText(attrs: string, inner: string): string {
  const label = inner.replace(/<[^>]*>/g, '').trim();
  const href = /\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
  const raw = href ? (href[2] ?? href[3] ?? href[4] ?? '') : '';
  const target = realTarget(raw.replace(/&amp;/g, '&'));
  if (target === undefined) return label;
  if (label === '' || sameLink(label, target)) return target;
  return `${label} (${target})`;
}

/** The link's real target: a proxy's wrapped URL when it carries one, else the link itself (http(s) and mailto only). */
export function realTarget(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol === 'mailto:') return href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  for (const name of PROXY_PARAMS) {
    const wrapped = url.searchParams.get(name);
    if (wrapped && /^https?:\/\//i.test(wrapped)) return realTarget(wrapped) ?? wrapped;
  }
  return url.toString();
}

function sameLink(label: string, target: string): boolean {
  const bare = (s: string): string =>
    s
      .replace(/^https?:\/\//i, '')
      .replace(/\/+$/, '')
      .toLowerCase();
  return bare(label) === bare(target);
}
