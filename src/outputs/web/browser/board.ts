// The family board's script, bundled for the browser by esbuild (scripts/bundle.mjs) and served as
// `board.<hash>.js` (the page's CSP allows no inline script). It draws the board model the page
// carries, then keeps it current from `api/events` (server-sent events), fetching `api/board` every
// minute while the stream is down.
// The style sheets, bundled by esbuild into board.css in this order: the board's, then the overlay's.
import './board.css';
import './calendars.css';
import type { BoardLabels } from '../../../i18n/board-text.js';
import type { BoardModel } from '../board-model.js';
import type { Versioned as ServerVersioned } from '../board.js';
import { childCard } from './cards.js';
import { byId, clear, closeDialogOnEscape, dataBlock, el, pageUrl as url } from './dom.js';
import { fit } from './fit.js';

/** What `api/board`, the event stream and the page's data block carry: the server's model and its version. */
type Versioned = Omit<ServerVersioned, 'json'>;

const FETCH_EVERY_MS = 60000;
const board = byId('board');
const status = byId('status');
// Until the first model arrives (the page always carries one), the English fallbacks below speak.
let labels: Partial<BoardLabels> = {};
let version = '';
let stream: EventSource | null = null;
let lastContact = Date.now();
let shown: BoardModel | null = null;

function showStatus(text: string | undefined): void {
  status.textContent = text || '';
  status.hidden = !text;
}

function render(model: BoardModel, v?: string): void {
  shown = model;
  labels = model.labels;
  version = v || version;
  document.title = model.labels.title;
  board.style.setProperty('--children', String(Math.max(1, model.children.length)));
  board.className = 'board children-' + model.children.length;
  const cards = model.children.length ? model.children.map((c) => childCard(c, model.labels)) : [el('p', 'empty', model.labels.noChildren)];
  clear(board);
  cards.forEach((c) => board.appendChild(c));
  cards.forEach((c) => {
    if (c.className === 'child') fit(c, model.labels);
  });
}

function received(body: Versioned): void {
  lastContact = Date.now();
  showStatus('');
  render(body.model, body.version);
}

function noAccess(): void {
  clear(board);
  showStatus(labels.noAccess || 'No access (401)');
}

function fetchBoard(): void {
  fetch(url('api/board'), { credentials: 'same-origin', cache: 'no-cache' })
    .then((r) => {
      if (r.status === 401) return noAccess();
      if (!r.ok) throw new Error(String(r.status));
      return r.json().then((body: Versioned) => received(body));
    })
    .catch(() => showStatus(labels.connectionLost));
}

function listen(): void {
  if (typeof EventSource === 'undefined') return;
  const source = new EventSource(url('api/events', { v: version }));
  stream = source;
  source.addEventListener('board', (e) => received(JSON.parse((e as MessageEvent<string>).data) as Versioned));
  source.addEventListener('open', () => {
    lastContact = Date.now();
    showStatus('');
  });
  source.addEventListener('error', () => {
    // A closed stream (refused, or the browser gave up) is not retried: fetching `api/board` takes over.
    if (source.readyState === EventSource.CLOSED) fetchBoard();
  });
}

// A tablet turned round: the cards are laid out anew and fitted again.
let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (shown) render(shown);
  }, 200);
});

// While the stream is not open the board fetches `api/board` itself, and says so when the bridge stays out of reach.
setInterval(() => {
  if (stream && stream.readyState === EventSource.OPEN) return;
  fetchBoard();
  if (Date.now() - lastContact > 2 * FETCH_EVERY_MS) showStatus(labels.connectionLost);
}, FETCH_EVERY_MS);

closeDialogOnEscape();
const first = dataBlock<Versioned>('board-data');
if (first) render(first.model, first.version);
listen();
