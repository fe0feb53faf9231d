// The simulator's download state (spec 4.6, 4.8): single-use keys and one-time links with what each
// hands out, and the switches tests flip: keys that wait or fail, a redirect to another host, a dead
// web session, a file served under another name. Written apart from the client (style rule 11).
import { randomBytes } from 'node:crypto';
import type { PortalSession } from './sessions.js';
import type { SimUrls } from './types.js';

/** How a newly issued key behaves: works, answers download_failed at once, or answers a non-JSON page. */
export type KeyOutcome = 'ok' | 'download_failed' | 'not_json';
export type FileKind = 'homework' | 'school' | 'attachment';

export interface SimFile {
  name: string;
  body: string;
  type: string;
}

export interface SimKey {
  login: string;
  kind: FileKind;
  id: string;
  file: SimFile;
  outcome: KeyOutcome;
  /** CSCheckKey answers not_downloaded_yet this many times, then ready. */
  wait: number;
  opened: boolean;
  checks: number;
  served: boolean;
}

/** A one-time GetFile link, or an attachment's download link. */
export interface SimLink {
  login: string;
  kind: FileKind;
  id: string;
  file: SimFile;
  /** Attachment /get answers left as the HTML waiting page. */
  waitsLeft: number;
  served: boolean;
}

export interface SimDownloadsDeps {
  urls: () => SimUrls;
}

export class SimDownloads {
  /** CSCheckKey answers not_downloaded_yet this many times per key (Infinity: never ready). */
  keyWait = 0;
  /** An attachment's /get answers its HTML waiting page this many times before the file. */
  attachmentWaits = 1;
  /** School files go through single-use keys as homework does (spec 4.6) instead of a one-time GetFile link. */
  schoolFilesByKey = false;
  /** Keys handed out so far. */
  keysIssued = 0;
  /** Files actually handed out, in order. */
  readonly served: { kind: FileKind; id: string; login: string; name: string }[] = [];
  readonly keys = new Map<string, SimKey>();
  readonly links = new Map<string, SimLink>();
  private outcomes: KeyOutcome[] = [];
  private redirect: string | undefined;
  private readonly expiring = new Set<string>();
  private readonly deadWebSids = new Set<string>();
  private readonly overrides = new Map<string, Partial<SimFile>>();

  constructor(private readonly deps: SimDownloadsDeps) {}

  /** The next keys behave as listed, in order; keys after them work. */
  nextKeys(...outcomes: KeyOutcome[]): void {
    this.outcomes.push(...outcomes);
  }

  /** Homework and school downloads redirect to this URL instead of the sandbox (undefined: normal). */
  redirectTo(url: string | undefined): void {
    this.redirect = url;
  }

  get redirectTarget(): string | undefined {
    return this.redirect;
  }

  /**
   * The web session (DZIENNIKSID) of this login dies at its next download request while the API
   * session (oauth_token) keeps working. A new login's session is not affected.
   */
  expireWebSession(login: string): void {
    this.expiring.add(login);
  }

  /** Serve a file under another name or body (undefined restores it). */
  overrideFile(kind: FileKind, id: string | number, file: Partial<SimFile> | undefined): void {
    if (file === undefined) this.overrides.delete(`${kind}:${String(id)}`);
    else this.overrides.set(`${kind}:${String(id)}`, file);
  }

  /** Whether a live portal session may use the download pages (its web session is not dead). */
  webSessionAlive(session: PortalSession): boolean {
    if (this.expiring.delete(session.login)) this.deadWebSids.add(session.webSid);
    return !this.deadWebSids.has(session.webSid);
  }

  /** The file a route hands out: its catalogue name, unless a test overrode it. */
  file(kind: FileKind, id: string, name: string): SimFile {
    const base = { name, body: simulatedBody(`${kind} ${id}`, name), type: contentType(name) };
    return { ...base, ...this.overrides.get(`${kind}:${id}`) };
  }

  /** Issues a key and returns its CSTryToDownload URL. */
  issueKey(login: string, kind: FileKind, id: string, file: SimFile): string {
    const key = randomBytes(16).toString('hex');
    this.keysIssued++;
    this.keys.set(key, {
      login,
      kind,
      id,
      file,
      outcome: this.outcomes.shift() ?? 'ok',
      wait: this.keyWait,
      opened: false,
      checks: 0,
      served: false,
    });
    return `${this.deps.urls().sandbox_url}/index.php?action=CSTryToDownload&singleUseKey=${key}`;
  }

  /** Issues a one-time {sandbox}/GetFile/<token> link (school files). */
  issueGetFile(login: string, kind: FileKind, id: string, file: SimFile): string {
    const token = this.addLink(login, kind, id, file);
    return `${this.deps.urls().sandbox_url}/GetFile/${token}`;
  }

  /** The downloadLink of a message attachment (on the sandbox host here). */
  attachmentLink(login: string, attachmentId: string | number, name?: string): string {
    const id = String(attachmentId);
    const file = this.file('attachment', id, name ?? `zalacznik-${id}.pdf`);
    const token = this.addLink(login, 'attachment', id, file);
    return `${this.deps.urls().sandbox_url}/attachments/${token}`;
  }

  recordServed(entry: { kind: FileKind; id: string; login: string; file: SimFile }): void {
    this.served.push({ kind: entry.kind, id: entry.id, login: entry.login, name: entry.file.name });
  }

  private addLink(login: string, kind: FileKind, id: string, file: SimFile): string {
    const token = randomBytes(16).toString('hex');
    this.links.set(token, { login, kind, id, file, waitsLeft: kind === 'attachment' ? this.attachmentWaits : 0, served: false });
    return token;
  }
}

function simulatedBody(what: string, name: string): string {
  return `%PDF-1.4\n% dziennik2mqtt simulator, ${what}: ${name}\n%%EOF\n`;
}

function contentType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'pdf') return 'application/pdf';
  if (ext === 'docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  return 'application/octet-stream';
}
