// Small builders for the replies the simulated hosts send, so every handler sets the same headers.
import type { Reply } from './types.js';

export function json(status: number, body: unknown, extra: Partial<Reply> = {}): Reply {
  return {
    ...extra,
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...extra.headers },
    body: JSON.stringify(body),
  };
}

export function html(status: number, body: string, extra: Partial<Reply> = {}): Reply {
  return { ...extra, status, headers: { 'Content-Type': 'text/html; charset=UTF-8', ...extra.headers }, body };
}

export function redirect(location: string, extra: Partial<Reply> = {}): Reply {
  return {
    ...extra,
    status: 302,
    headers: { Location: location, 'Content-Type': 'text/html; charset=UTF-8', ...extra.headers },
    body: '',
  };
}

/** A whole HTML document around some body markup, in Polish as the portal's pages are. */
export function page(title: string, bodyMarkup: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="pl">\n<head><meta charset="UTF-8"><title>${title}</title></head>\n` + `<body>\n${bodyMarkup}\n</body>\n</html>\n`
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
