// The family board's page (`/`): plain HTML that carries the board model as JSON data (not script:
// the CSP allows no inline script) so the first paint needs no second request, and links the script
// and the style sheet (src/outputs/web/browser/*.css) that board-bundle.ts serves under hashed names.
import type { Language } from '../../config/language.js';
import { escapeHtml, htmlPage } from '../../util/html.js';

export interface BoardPage {
  language: Language;
  title: string;
  /** The script's file (`board.<hash>.js`, board-bundle.ts). */
  script: string;
  /** The style sheet's file (`board.<hash>.css`, board-bundle.ts). */
  style: string;
  /** The model and its version, as JSON, for the script to draw. */
  data: string;
  /** The calendar feeds' access block (board-calendars.ts), when the cards offer their calendars. */
  calendarFeedAccess?: string | undefined;
  /** The words of the link to /diagnostics at the foot (the app's panel only: there it needs no token). */
  diagnostics?: string | undefined;
}

/** The page, in the bridge's language, with the model for the script to draw. */
export function boardHtml({ language, title, script, style, data, calendarFeedAccess, diagnostics }: BoardPage): string {
  // "<" escaped so that no text from the register can close a data block.
  const safe = (json: string): string => json.replace(/</g, '\\u003c');
  const access = calendarFeedAccess === undefined ? '' : `\n<script type="application/json" id="feed-access">${safe(calendarFeedAccess)}</script>`;
  const diagnosticsLink =
    diagnostics === undefined ? '' : `\n<p class="diagnostics"><a href="diagnostics" download>${escapeHtml(diagnostics)}</a></p>`;
  return htmlPage(
    language,
    title,
    `<link rel="icon" href="data:,">\n<link rel="stylesheet" href="${style}">\n<script src="${script}" defer></script>`,
    `<p id="status" class="status" role="status" hidden></p>
<main id="board" class="board" aria-live="polite"></main>${diagnosticsLink}
<script type="application/json" id="board-data">${safe(data)}</script>${access}`,
  );
}
