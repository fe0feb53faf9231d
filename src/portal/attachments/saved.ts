// Saved files under data_dir/downloads/<child>/, from the writing to the serving. Written: a safe name
// that can never leave that folder, placed atomically without replacing a different file, and an index
// so a file is fetched only once. Named: the web server's path of a saved file, /files/<child>/...
// (interface 7.4), put in the records that name it. Served: /files/<child>/<message id>/<name> from
// downloads/<child>/messages/<message id>/, /files/<child>/school/<id>/<name> from
// downloads/<child>/school/<id>/, /files/<child>/homework/<file id>/<name> from
// downloads/<child>/homework/<file id>/, and from nowhere else.
//
// Files are 0600 in a 0700 folder, like everything else in data_dir: homework sheets and message
// attachments can hold a child's personal data, and the bridge runs as its own user. Someone who wants
// a dashboard to show them can copy or share them deliberately.
import { createHash } from 'node:crypto';
import { createReadStream, lstatSync, realpathSync } from 'node:fs';
import { link, rename, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import * as z from 'zod';
import { partName, safeName, syncFolder, writeJson } from '../../util/files.js';
import { readStored } from '../../util/stored.js';
import { SerialQueue } from '../../util/serial.js';

/** Bytes of UTF-8 a saved name may take: far under the usual 255, leaving room for a " (n)" suffix. */
const MAX_NAME_BYTES = 150;
/** Longest tail kept as an extension when a name is cut. */
const MAX_EXTENSION = 16;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A file name safe on any file system: no folder part, no control or formatting characters, none of
 * <>:"/\|?*, no leading dots or spaces, not empty, not a reserved device name, at most 150 bytes.
 * Polish letters stay.
 */
export function safeFileName(raw: string | undefined, fallback = 'plik'): string {
  return clean(raw ?? '') || clean(fallback) || 'plik';
}

function clean(raw: string): string {
  let name = raw.normalize('NFC');
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  name = name
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  if (name === '') return '';
  const dot = name.lastIndexOf('.');
  if (RESERVED.test(dot > 0 ? name.slice(0, dot) : name)) name = `_${name}`;
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  // Cut to the byte budget on a character boundary, keeping a short extension.
  const cut = name.lastIndexOf('.');
  const ext = cut > 0 && name.length - cut <= MAX_EXTENSION ? name.slice(cut) : '';
  const chars = [...(ext ? name.slice(0, cut) : name)];
  const budget = MAX_NAME_BYTES - Buffer.byteLength(ext);
  while (Buffer.byteLength(chars.join('')) > budget) chars.pop();
  return `${chars.join('').replace(/[\s.]+$/, '') || 'plik'}${ext}`;
}

export interface SavedFile {
  /** Absolute path of the saved file. */
  path: string;
  /** Its name in the child's folder. */
  name: string;
  size: number;
}

const indexSchema = z.object({ version: z.literal(1), files: z.record(z.string(), z.string()) });
/** Download key (e.g. homework-771) -> file name in the folder. */
type Index = z.infer<typeof indexSchema>;

export interface DownloadStoreOptions {
  dataDir: string;
  /** The child's id; the folder is its file-name-safe form. */
  child: string;
  /** Folders under the child's (e.g. messages/<message id>), each made file-name safe. */
  folder?: readonly string[];
  /** node's link(); a test hands in one that fails as a confinement without hard links makes it. */
  link?: typeof link;
  /** Told once when the index is broken (it is moved aside; the files are fetched again when asked for). */
  onBroken?: (error: Error) => void;
}

export class DownloadStore {
  private index: Index | undefined;
  private readonly writes = new SerialQueue();

  constructor(private readonly options: DownloadStoreOptions) {}

  /** data_dir/downloads/<child>[/<folder>...], absolute. */
  get dir(): string {
    return resolve(this.options.dataDir, 'downloads', safeName(this.options.child), ...(this.options.folder ?? []).map(safeName));
  }

  /** The saved file for a download key, if it was saved before and is still there. */
  async find(key: string): Promise<SavedFile | undefined> {
    const name = (await this.loadIndex()).files[key];
    if (name === undefined || name !== safeFileName(name)) return undefined;
    const path = this.inside(name);
    const info = await stat(path).catch(() => undefined);
    return info?.isFile() ? { path, name, size: info.size } : undefined;
  }

  /**
   * A new temporary file's path in the folder, for a body streamed to disk (the writer makes the
   * folder): its name (util/files.ts partName) keeps it apart from every real name and marks it as a
   * leftover if the process stops.
   */
  tempPath(): string {
    return join(this.dir, partName());
  }

  /**
   * Gives a finished temporary file (tempPath()) a safe form of name. An existing file with the same
   * name and other content is kept, and this one gets a " (2)" suffix; the same content reuses the
   * existing file. The caller removes the temporary file afterwards.
   */
  async place(temp: string, size: number, name: string | undefined, fallback: string, key?: string): Promise<SavedFile> {
    const base = safeFileName(name, fallback);
    const dot = base.lastIndexOf('.');
    for (let n = 1; n <= 999; n++) {
      // name.ext -> name (n).ext
      const candidate = n === 1 ? base : dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
      const path = this.inside(candidate);
      const placed = await placeNew(temp, path, this.options.link);
      // The new name survives a power cut only once the folder is on the disk too.
      if (placed) await syncFolder(this.dir);
      if (placed || (await sameContent(path, temp, size))) return await this.remember(key, { path, name: candidate, size });
    }
    throw new Error(`downloads: no free name for ${base}`);
  }

  /** The path of a name in the folder; refuses anything that would resolve elsewhere. */
  private inside(name: string): string {
    const dir = this.dir;
    const path = resolve(dir, name);
    if (!path.startsWith(`${dir}${sep}`) || basename(path) !== name) throw new Error(`downloads: unsafe file name ${JSON.stringify(name)}`);
    return path;
  }

  private async remember(key: string | undefined, saved: SavedFile): Promise<SavedFile> {
    if (key === undefined) return saved;
    const index = await this.loadIndex();
    index.files[key] = saved.name;
    await this.writes.enqueue(() => writeJson(join(this.dir, '.index.json'), index));
    return saved;
  }

  private async loadIndex(): Promise<Index> {
    if (this.index) return this.index;
    const saved = await readStored(join(this.dir, '.index.json'), indexSchema, { onBroken: this.options.onBroken }).catch(() => undefined);
    // Spread: a key such as __proto__ stays a plain key.
    this.index ??= { version: 1, files: { ...saved?.files } };
    return this.index;
  }
}

/** Errors of link() that mean "no hard links here", not "the name is taken". */
const NO_LINKS = new Set(['EPERM', 'EACCES', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Gives the finished temp file its final name only if that name is free. A hard link fails on an
 * existing name atomically; where links are not allowed (a file system without them, or a confinement
 * such as an AppArmor profile without `l` answering EACCES), a check then rename stands in: the
 * name still never shows a half-written file.
 */
async function placeNew(temp: string, path: string, linkFile: typeof link = link): Promise<boolean> {
  try {
    await linkFile(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_LINKS.has(code)) throw error;
  }
  if (await stat(path).catch(() => undefined)) return false;
  await rename(temp, path);
  return true;
}

/** Whether the file at path holds what the temp file holds (compared by streaming, never read whole). */
async function sameContent(path: string, temp: string, size: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size !== size) return false;
  const [a, b] = await Promise.all([digest(path), digest(temp)]);
  return a === b;
}

async function digest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The web server's path of a file saved under the child's downloads folder: a message's attachment
 * `[<message id>, <name>]`, a school file `['school', <id>, <name>]`, a homework file
 * `['homework', <id>, <name>]`; each part URL-encoded.
 */
export function savedFileUrl(child: string, parts: readonly string[]): string {
  return `/files/${[child, ...parts].map(encodeURIComponent).join('/')}`;
}

/** A saved file as the route answers it (the web server's WebResponse has this shape; attachments/ never imports web/). */
type FileAnswer = { status: 200; headers: Record<string, string>; file: string };

/**
 * The web server's route for savedFileUrl's paths; `dataDir` is the config's data_dir. The path's
 * parts are checked to be exactly what the store itself would have written (a known child, a numeric
 * id, a safe file name), and only a regular file is served, as an attachment, never shown inline;
 * anything else gets no answer here (the server's 404).
 */
export function fileRoute(data: { children(): readonly { id: string }[] }, dataDir: string) {
  return (req: { segments: readonly string[] }): FileAnswer | undefined => {
    const [first, child, ...parts] = req.segments;
    if (first !== 'files') return undefined;
    // A message id is all digits, so "school" or "homework" never names a message.
    const [folder, id, name, ...rest] = parts[0] === 'school' || parts[0] === 'homework' ? parts : ['messages', ...parts];
    if (child === undefined || id === undefined || name === undefined || rest.length > 0) return undefined;
    if (!data.children().some((c) => c.id === child) || !/^\d{1,20}$/.test(id)) return undefined;
    // The store never writes a name that safeFileName changes, nor one starting with a dot (its index and temp files).
    if (name !== safeFileName(name) || name.startsWith('.')) return undefined;
    const found = realFileIn(join(dataDir, 'downloads'), join(safeName(child), folder ?? 'messages', id, name));
    if (found === undefined) return undefined;
    // RFC 6266: an ASCII fallback, then the exact name.
    const ascii =
      name
        .normalize('NFD')
        .replace(/[^\x20-\x7e]/g, '')
        .replace(/["\\]/g, '_') || 'plik';
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Content-Length': String(found.size),
      },
      file: found.path,
    };
  };
}

/**
 * The real path and size of `relative` under `root`, or undefined unless it is a regular file (not a
 * link) whose real path lies inside root's real path. Links are followed only to where they really
 * lead: in the app data_dir/downloads is itself a link, to /media/dziennik2mqtt, which other apps can
 * write, so a folder linked from there must not reach the cookie jars in data_dir/sessions. The server
 * then opens that real path without following a link (O_NOFOLLOW), so a file swapped for a link after
 * this look is not followed either.
 */
function realFileIn(root: string, relative: string): { path: string; size: number } | undefined {
  try {
    const realRoot = realpathSync(root);
    const path = realpathSync(join(root, relative));
    if (!path.startsWith(realRoot + sep)) return undefined;
    // The real path names no link; lstat of the path as asked says whether its last part was one.
    if (lstatSync(join(root, relative)).isSymbolicLink()) return undefined;
    const info = lstatSync(path);
    return info.isFile() ? { path, size: info.size } : undefined;
  } catch {
    return undefined;
  }
}
