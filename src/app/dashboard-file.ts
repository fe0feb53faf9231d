// The dashboard file a running bridge keeps current (`run --dashboard-file FILE`, the app's
// /config/dashboard.yaml): written again whenever the children it can name change (a child's name
// learned at its first pass, an e-mail entry's children listed), so a first install gets its dashboard
// without a restart, and whenever what it shows of a child changes (a kindergarten found, a module the
// portal refuses gone from the device, a subject graded for the first time). It holds what `dziennik2mqtt dashboard` would print at that moment.
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { announcedChildren, boardUrlFor, makeDashboard, type DashboardOptions, type LiveChild } from './commands/dashboard.js';
import type { PassRunner } from '../runner/account.js';
import { loginKey } from '../runner/family-road.js';
import type { AccountConfig } from '../config/schema.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

/** As `dashboard` is run (in the add-on the log also names the folder as Home Assistant shows it), and the file. */
export interface DashboardFileOptions extends Pick<DashboardOptions, 'config' | 'addon' | 'supervisor' | 'container'> {
  file: string;
  log: Logger;
}

/** A child as the running bridge knows it: its id once known (given, or its first pass found it), and its pass runner. */
export interface KnownChild {
  id: string | undefined;
  runner: Pick<PassRunner, 'loginName' | 'features' | 'figures'>;
}

export class DashboardFile {
  /** What the file was last made for, as the running bridge knows its children (App.updateDashboard). */
  private madeFor: string | undefined;
  private board: Promise<{ url?: string; note?: string; slug?: string }> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: DashboardFileOptions) {}

  /**
   * Makes the file again when what it shows of the children (a known id, a kind, the modules refused
   * for a day) is not what it was last made for. Taken from the running bridge's memory rather than from
   * data_dir, which the pass runners' background writes may not have reached yet. Never throws.
   */
  update(known: readonly KnownChild[]): Promise<void> {
    const children = known.map(({ id, runner }) => ({
      id,
      login: runner.loginName,
      absent: runner.features.absent,
      dynamic: runner.features.dynamic(),
      kind: runner.figures.kindergartenPlan?.account_kind,
    }));
    const shown = children.map((c) => `${c.id ?? ''} ${c.kind ?? ''} ${c.absent.known()} ${c.dynamic.map((e) => e.key).join(',')}`).join('\n');
    const live = (account: AccountConfig): LiveChild | undefined => children.find((c) => loginKey(c.login) === loginKey(account.login));
    const next = this.writing.then(async () => {
      if (shown === this.madeFor) return;
      this.madeFor = shown;
      await this.write(live);
    });
    this.writing = next.catch(() => undefined);
    return this.writing;
  }

  /** Resolves when no write is under way (a stop waits for it). */
  idle(): Promise<void> {
    return this.writing;
  }

  private async write(live: (account: AccountConfig) => LiveChild | undefined): Promise<void> {
    const { config, file, log } = this.options;
    try {
      this.board ??= boardUrlFor(this.options);
      const board = await this.board;
      const made = await makeDashboard(config, { boardUrl: board.url }, await announcedChildren(config, live));
      if (made.text === undefined) return;
      // The same text (the start script wrote it a moment ago, or nothing new was learned): left alone.
      if ((await readFile(file, 'utf8').catch(() => undefined)) === made.text) return;
      // A whole file or none: Home Assistant's file editor may read it at any moment.
      const temp = `${file}.new`;
      await writeFile(temp, made.text);
      await rename(temp, file).catch(async (error: unknown) => {
        await unlink(temp).catch(() => undefined);
        throw error;
      });
      const where = this.options.addon && board.slug ? `/addon_configs/${board.slug}/dashboard.yaml` : file;
      // Ids only: a login (in the notes) and a child's name stay out of the log.
      const ids = made.children.map((c) => c.id);
      const later = made.notes.length > 0 ? '; the children not known yet are added once the bridge learns them' : '';
      log.info({ file: where, children: ids }, `the Home Assistant dashboard for ${ids.join(', ')} was written to ${where}${later}`);
    } catch (error) {
      log.warn({ file, err: errorText(error) }, 'the Home Assistant dashboard could not be written');
    }
  }
}
