// `/diagnostics` (interface 9.3): the running bridge's redacted bundle, with the token or through
// ingress (the app's panel links it), never with the board's cookie (the wall tablet's, the least
// trusted key of the house) nor a calendar feed's or the metrics' key; and, with http.metrics on, `/metrics` in
// Prometheus' text format, which its own key (token.ts metricsKey) opens too. Both are made from the
// bridge's memory: neither asks the portal anything.
import type { Route, WebResponse } from './types.js';
import type { Language } from '../../config/language.js';
import { DIAGNOSTICS_REFUSED } from '../../i18n/web-text.js';

export interface DiagnosticsSources {
  /** The bundle's JSON text. */
  bundle: () => Promise<string>;
  /** The metrics' text and its content type; undefined while http.metrics is off. */
  metrics?: (() => Promise<{ contentType: string; body: string }>) | undefined;
}

export const DIAGNOSTICS_FILE = 'dziennik2mqtt-diagnostics.json';

export function diagnosticsRoutes(sources: DiagnosticsSources, language: Language = 'en'): Route[] {
  const { metrics } = sources;
  return [
    (req) => {
      if (req.segments.join('/') !== 'diagnostics') return undefined;
      // Only the token or ingress: whoever passes the wall tablet holds its cookie, a calendar app a calendar feed's key.
      if (req.via !== 'query' && req.via !== 'ingress')
        return { status: 401, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: DIAGNOSTICS_REFUSED[language] };
      return {
        status: 200,
        later: async (): Promise<WebResponse> => ({
          status: 200,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Disposition': `attachment; filename="${DIAGNOSTICS_FILE}"`,
            'Cache-Control': 'no-store',
          },
          body: await sources.bundle(),
        }),
      };
    },
    (req) => {
      if (metrics === undefined || req.segments.join('/') !== 'metrics' || req.via === 'open') return undefined;
      return {
        status: 200,
        later: async (): Promise<WebResponse> => {
          const { contentType, body } = await metrics();
          return { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' }, body };
        },
      };
    },
  ];
}
