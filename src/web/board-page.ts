// The family board's page (`/`) and its style sheet (`board.css`): plain HTML that carries the board
// model as JSON data (not script: the CSP allows no inline script) so the first paint needs no second
// request, and CSS laid out for a wall tablet either way round and a phone. System fonts only.
import type { Language } from '../config/language.js';
import { CALENDARS_CSS } from './board-calendars.js';

export interface BoardPage {
  language: Language;
  title: string;
  /** The script's file (`board.<hash>.js`, board-bundle.ts). */
  script: string;
  /** The model and its version, as JSON, for the script to draw. */
  data: string;
  /** The feeds' access block (board-calendars.ts), when the cards offer their calendars. */
  feedAccess?: string | undefined;
}

/** The page, in the bridge's language, with the model for the script to draw. */
export function boardHtml({ language, title, script, data, feedAccess }: BoardPage): string {
  // "<" escaped so that no text from the register can close a data block.
  const safe = (json: string): string => json.replace(/</g, '\\u003c');
  const access = feedAccess === undefined ? '' : `\n<script type="application/json" id="feed-access">${safe(feedAccess)}</script>`;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="board.css">
<script src="${script}" defer></script>
</head>
<body>
<p id="status" class="status" role="status" hidden></p>
<main id="board" class="board" aria-live="polite"></main>
<script type="application/json" id="board-data">${safe(data)}</script>${access}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export const BOARD_CSS = `
:root {
  --bg: #eef1f5; --card: #ffffff; --ink: #15202b; --muted: #5b6775; --line: #dde3ea;
  --now: #1565c0; --now-bg: #e3f0ff; --cancel: #c62828; --cancel-bg: #fdecea;
  --sub: #a14d00; --sub-bg: #fff1dc; --room: #6a1b9a; --room-bg: #f4e8fb;
  --lucky: #2e7d32; --lucky-bg: #e8f5e9; --mine: #f9a825; --warn-bg: #fff3cd; --warn: #7a4f00;
  --down-bg: #fdecea; --down: #8e1b1b;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1419; --card: #1b232c; --ink: #eef2f6; --muted: #9aa7b4; --line: #2c3742;
    --now: #7ab8ff; --now-bg: #16314f; --cancel: #ff8a80; --cancel-bg: #3d1a1a;
    --sub: #ffb74d; --sub-bg: #3a2a12; --room: #d59cf5; --room-bg: #2f1d3a;
    --lucky: #81c784; --lucky-bg: #1c3320; --warn-bg: #3a300f; --warn: #ffd666; --down-bg: #401818; --down: #ffb4ab;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { background: var(--bg); color: var(--ink); font-size: 18px; line-height: 1.25; }
h2, h3, p, ol, ul { margin: 0; padding: 0; }
ol, ul { list-style: none; }
.status { background: var(--down-bg); color: var(--down); font-weight: 700; padding: .4em .8em; text-align: center; }
.board { display: grid; gap: 12px; padding: 12px; min-height: 100%; grid-template-columns: repeat(var(--children, 1), minmax(0, 1fr)); }
.board > .empty { font-size: 1.4em; padding: 2em; text-align: center; color: var(--muted); }
.child { background: var(--card); border-radius: 14px; padding: 14px 16px; display: flex; flex-direction: column; gap: 10px; min-width: 0; }

.head { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: center; gap: 12px; }
.who { min-width: 0; }
.who h2 { font-size: 2em; line-height: 1.1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.who-line { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin-top: 4px; }
.class { color: var(--muted); font-size: 1em; margin-right: 4px; }
.pill { border: 1px solid var(--line); border-radius: 999px; padding: .15em .6em; color: var(--muted); font-size: .9em; white-space: nowrap; }
.pill.unread { background: var(--now-bg); color: var(--now); border-color: transparent; }
.lucky { display: grid; justify-items: center; background: var(--lucky-bg); color: var(--lucky); border-radius: 12px; padding: 4px 14px; min-width: 6.5em; }
.lucky-label { font-size: .75em; font-weight: 600; text-align: center; }
.lucky-number { font-size: 2.6em; font-weight: 800; line-height: 1; }
.lucky.mine { background: var(--mine); color: #231a00; box-shadow: 0 0 0 4px #ffe082; }
.lucky-you { font-weight: 800; font-size: 1.05em; }

.warning { border-radius: 10px; padding: .45em .7em; background: var(--warn-bg); color: var(--warn); }
.warning-problem, .warning-offline { background: var(--down-bg); color: var(--down); }
.warning .detail { display: block; font-size: .85em; margin-top: .2em; }

.plan { display: flex; flex-direction: column; gap: 8px; flex: none; }
.briefing { margin: 3px 0 0; color: var(--ink); font-size: .95em; line-height: 1.25; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
.headline { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2em .5em; background: var(--now-bg); color: var(--now); border-radius: 10px; padding: .35em .7em; font-size: 1.25em; }
.hl-label { font-weight: 600; }
.hl-subject { color: var(--ink); }
.hl-detail { color: var(--muted); font-size: .85em; }
.day-title { font-size: 1.15em; color: var(--muted); font-weight: 600; margin-bottom: 2px; }
.lessons { display: grid; gap: 3px; }
.lesson { display: grid; grid-template-columns: 1.4em 3.2em minmax(0, 1fr) auto; gap: .5em; align-items: baseline; padding: .22em .45em; border-radius: 8px; font-size: 1.15em; border-left: 5px solid transparent; }
.lesson .no { color: var(--muted); text-align: right; }
.lesson .time { color: var(--muted); font-variant-numeric: tabular-nums; }
.lesson .subject { min-width: 0; }
.lesson .subject-name { font-weight: 600; }
.lesson .note { display: block; font-size: .78em; font-weight: 700; }
.lesson .room { color: var(--muted); white-space: nowrap; }
.lesson.done { opacity: .45; }
.lesson.now { background: var(--now-bg); border-left-color: var(--now); }
.lesson.change-cancelled { background: var(--cancel-bg); border-left-color: var(--cancel); }
.lesson.change-cancelled .subject-name, .lesson.change-cancelled .time, .lesson.change-cancelled .room { text-decoration: line-through; color: var(--muted); font-weight: 400; }
.lesson.change-cancelled .note { color: var(--cancel); }
.lesson.change-substitution, .lesson.change-shifted { background: var(--sub-bg); border-left-color: var(--sub); }
.lesson.change-substitution .note, .lesson.change-shifted .note { color: var(--sub); }
.lesson.change-room_change { background: var(--room-bg); border-left-color: var(--room); }
.lesson.change-room_change .note, .lesson.change-room_change .room { color: var(--room); font-weight: 700; }
.lesson.now.change-substitution, .lesson.now.change-room_change { box-shadow: inset 0 0 0 2px var(--now); }
.empty { color: var(--muted); }

.info { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 10px; }
.box { border-top: 2px solid var(--line); padding-top: 6px; min-width: 0; }
.box h3 { font-size: .85em; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin-bottom: 4px; }
.box li { margin-bottom: 4px; overflow-wrap: anywhere; }
.box .when { color: var(--muted); }
.box .kind { font-size: .8em; font-weight: 700; color: var(--sub); text-transform: uppercase; }
.box .what { display: block; font-size: .9em; }
.box .what b { font-weight: 600; }
.homework li { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
.tests li, .tests .what { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.messages { grid-column: 1 / -1; }
.msg-mark { font-size: .75em; font-weight: 800; text-transform: uppercase; color: var(--now); }
.msg.opened .msg-mark { color: var(--muted); }
.msg-line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.msg-topic { font-weight: 600; }
.msg .when { display: block; font-size: .85em; }
.msg-text { white-space: pre-line; font-size: .9em; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
.files { display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: .9em; }
.files a { color: var(--now); }
.grades { grid-column: 1 / -1; }
.grades ul { display: flex; flex-wrap: wrap; gap: 6px 14px; }
.grade { display: flex; align-items: baseline; gap: .35em; margin: 0; white-space: nowrap; }
.grade .mark { font-weight: 800; font-size: 1.25em; }
.grade .grade-subject { font-size: .9em; }
.grade .when { display: none; }
.foot { margin-top: auto; color: var(--muted); font-size: .8em; text-align: right; }

/* Tablet, landscape: children side by side; each card a column, the lists below the plan take what is left. */
@media (orientation: landscape) and (min-width: 900px) {
  body { font-size: 20px; }
  .info, .warning { font-size: .85em; }
  .board { height: 100vh; }
  .info, .warning { font-size: .85em; }
  .child { overflow: hidden; }
  .info { flex: 1 1 auto; min-height: 0; overflow: hidden; align-content: start; }
  .warning .detail { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
}
/* One child on a tablet in landscape: the card as wide as the screen, the plan left, the rest right. */
@media (orientation: landscape) and (min-width: 900px) {
  .children-1 .child { display: grid; grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); grid-template-rows: auto auto minmax(0, 1fr) auto; column-gap: 28px; }
  .children-1 .head, .children-1 .warning, .children-1 .foot { grid-column: 1 / -1; }
  .children-1 .warning { grid-row: 2; }
  .children-1 .foot { grid-row: 4; }
  .children-1 .plan { grid-column: 1; grid-row: 3; }
  .children-1 .info { grid-column: 2; grid-row: 3; grid-template-columns: minmax(0, 1fr); }
}
/* Tablet, portrait: children one below the other; each card plan left, the rest right. */
@media (orientation: portrait) and (min-width: 600px) {
  body { font-size: 20px; }
  .info, .warning { font-size: .85em; }
  .board { grid-template-columns: minmax(0, 1fr); grid-auto-rows: 1fr; height: 100vh; }
  .child { display: grid; grid-template-columns: minmax(0, 1.35fr) minmax(0, 1fr); grid-template-rows: auto auto 1fr auto; column-gap: 16px; overflow: hidden; }
  .head, .warning, .foot { grid-column: 1 / -1; }
  .warning { grid-row: 2; }
  .foot { grid-row: 4; }
  .plan { grid-column: 1; grid-row: 3; }
  .info { grid-column: 2; grid-row: 3; grid-template-columns: minmax(0, 1fr); align-content: start; min-height: 0; overflow: hidden; }
}
/* One child on a tablet in portrait: one column, the lists two by two below the plan. */
@media (orientation: portrait) and (min-width: 600px) {
  .children-1 .child { display: flex; flex-direction: column; }
  .children-1 .info { flex: 1 1 auto; grid-template-columns: repeat(2, minmax(0, 1fr)); }
}
/* Phone: one column, the page scrolls. */
@media (max-width: 599px) {
  body { font-size: 16px; }
  .board { grid-template-columns: minmax(0, 1fr); padding: 8px; gap: 8px; }
  .child { padding: 12px; }
  .who h2 { font-size: 1.6em; }
  .lucky { min-width: 5.5em; }
  .lucky-number { font-size: 2em; }
  .info { grid-template-columns: minmax(0, 1fr); }
}
${CALENDARS_CSS}`;
