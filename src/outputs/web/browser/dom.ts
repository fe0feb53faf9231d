// The few DOM helpers the board's script draws with. Text goes in only as text nodes, so nothing from
// the register is ever read as HTML.

type Content = Node | string | number | null | undefined;

/** An element with a class and its content (text or elements; empty ones are left out). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, content?: Content | Content[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  // No content, or an empty part of it, adds nothing.
  for (const c of Array.isArray(content) ? content : [content]) {
    if (c === null || c === undefined || c === '') continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** The element the page must have (the page and the script are served together). */
export function byId(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e;
}

/** A JSON data block of the page (`<script type="application/json">`), or null when the page has none. */
export function dataBlock<T>(id: string): T | null {
  const block = document.getElementById(id);
  return block ? (JSON.parse(block.textContent ?? '') as T) : null;
}

/**
 * A path of the bridge's web server relative to the page (so it works under the add-on's ingress path
 * too), with the token the page was opened with (the cookie does it too, once set).
 */
export function pageUrl(path: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  const token = new URLSearchParams(location.search).get('token');
  if (token) q.set('token', token);
  const s = q.toString();
  return s ? path + '?' + s : path;
}

/** The one dialog over the page and what its opener does when it closes. */
let dialog: { overlay: HTMLElement; closed: () => void } | null = null;

/**
 * A dialog over the page (the calendars' `cal-`, an opened list's `more-`): `<p>-overlay` holding `<p>-box`,
 * its heading beside a close button above `content`. Its ×, a tap beside it or Escape (closeDialogOnEscape)
 * closes it, and so does the next dialog. It lives outside the board: a redraw of the cards leaves it open.
 */
export function openDialog(p: 'cal' | 'more', heading: HTMLElement, content: Content[], close: string, closed = (): void => {}): HTMLElement {
  closeDialog();
  const button = el('button', p + '-close', '\u00d7');
  button.type = 'button';
  button.setAttribute('aria-label', close);
  button.addEventListener('click', closeDialog);
  const box = el('div', p + '-box', [el('div', p + '-head', [heading, button]), ...content]);
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-modal', 'true');
  box.setAttribute('aria-label', heading.textContent || '');
  const overlay = el('div', p + '-overlay', box);
  overlay.addEventListener('click', (e) => {
    if (e.target === overlay) closeDialog();
  });
  document.body.appendChild(overlay);
  dialog = { overlay, closed };
  button.focus();
  return box;
}

export function closeDialog(): void {
  if (!dialog) return;
  const { overlay, closed } = dialog;
  dialog = null;
  overlay.parentNode?.removeChild(overlay);
  closed();
}

export function closeDialogOnEscape(): void {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || e.key === 'Esc') closeDialog();
  });
}
