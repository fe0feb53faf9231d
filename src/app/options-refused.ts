// The app with options it refuses (interface 13.2). The Supervisor saves a form the program cannot run
// with (the untouched form, no account, two accounts with one id, a message naming no account); rather
// than exit with the reason in the app's log alone, the app stays up until the Supervisor stops it (it
// restarts the app when the form is saved): the bridge's device says `problem` ON with reason
// `config_invalid` and the refusal in the family's language, the sidebar panel shows what to fix, and
// no child device is published (those of an earlier run are left as they are).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BridgeProblems } from './bridge-problem.js';
import type { Language } from '../config/language.js';
import type { MqttConfig } from '../config/schema.js';
import { REFUSED_PANEL_TEXT } from '../i18n/options-refused-text.js';
import { MqttSink } from '../outputs/mqtt/sink.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { fromIngress, trustedIngress } from '../outputs/web/request.js';
import { listen } from '../outputs/web/server.js';
import { escapeHtml, htmlPage } from '../util/html.js';
import { ADDON_HTTP_PORT, refusedSetting } from '../config/addon.js';

export interface RefusedOptionsInput {
  /** The refusal, each problem naming its option. */
  problems: readonly string[];
  language: Language;
  /** The broker (the form's, the environment's or the Supervisor's); undefined: the panel alone. */
  mqtt: MqttConfig | undefined;
  version: string;
  log: Logger;
  /** The panel's port (the add-on's ingress port; 0 any free one); undefined: no panel. */
  port: number | undefined;
  bind?: string;
  /** Home Assistant's ingress proxy: only through it does the panel name the problems. */
  ingressAddress: string | undefined;
  clock?: Clock;
}

export class RefusedOptions {
  private bridge: MqttSink | undefined;
  private server: Server | undefined;
  private connecting: Promise<void> | undefined;

  constructor(private readonly input: RefusedOptionsInput) {}

  /** Serves the panel and publishes the bridge's problem (the broker is waited for in the background). */
  async start(): Promise<{ port: number | undefined }> {
    const { input } = this;
    const clock = input.clock ?? systemClock;
    if (input.mqtt) {
      const bridge = new MqttSink({
        mqtt: input.mqtt,
        version: input.version,
        log: input.log.child({ part: 'mqtt' }),
        info: () => ({ version: input.version, options: 'refused', children: [] }),
        // The children of an earlier run stay as they were until the form is saved right.
        children: 'every',
        language: input.language,
        clock,
      });
      this.bridge = bridge;
      const problems = new BridgeProblems({ language: input.language, clock, publish: (state) => bridge.setProblem(state) });
      problems.refusedOptions(input.problems);
      this.connecting = bridge.start().catch((err: unknown) => input.log.warn({ err }, 'the MQTT broker was not reached'));
    }
    if (input.port === undefined) return { port: undefined };
    const server = createServer((req, res) => this.answer(req, res));
    this.server = server;
    return { port: await listen(server, input.port, input.bind ?? '0.0.0.0') };
  }

  async stop(): Promise<void> {
    await this.bridge?.stop();
    await this.connecting;
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const shown = fromIngress(req.socket.remoteAddress, this.input.ingressAddress);
    res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 200 : 405, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : refusedPage(this.input.problems, this.input.language, shown));
  }
}

/**
 * Under the Supervisor, with the form refused: shows the refusal until `stopped` (a SIGTERM: the
 * Supervisor restarts the app when the form is saved). Its exit code, 0.
 */
export async function waitWithRefusedOptions(
  input: Pick<RefusedOptionsInput, 'problems' | 'version' | 'log'> & { env: NodeJS.ProcessEnv; stopped: Promise<string> },
): Promise<number> {
  const { problems, version, log, env } = input;
  log.error({ problems }, "the app's options were refused: waiting for them to be saved again");
  const setting = await refusedSetting({ env });
  const shown = new RefusedOptions({ problems, ...setting, version, log, port: ADDON_HTTP_PORT, ingressAddress: trustedIngress(env) });
  await shown.start();
  log.info({ signal: await input.stopped }, 'stopping');
  await shown.stop();
  return 0;
}

/** The panel: what was refused and where to fix it; the problems only to Home Assistant's ingress. */
export function refusedPage(problems: readonly string[], language: Language, named: boolean): string {
  const text = REFUSED_PANEL_TEXT[language];
  const problemList = `<ul>\n${problems.map((p) => `<li><code>${escapeHtml(p)}</code></li>`).join('\n')}\n</ul>`;
  const body = named ? `<p>${escapeHtml(text.lead)}</p>\n${problemList}\n<p>${escapeHtml(text.steps)}</p>` : `<p>${escapeHtml(text.elsewhere)}</p>`;
  const style =
    '<style>body{font-family:system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;line-height:1.45}code{white-space:pre-wrap}li{margin:.5em 0}</style>';
  return htmlPage(language, text.title, style, `<h1>${escapeHtml(text.title)}</h1>\n${body}`);
}
