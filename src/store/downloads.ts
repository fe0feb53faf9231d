// Downloaded files under data_dir/downloads/<child>/: a safe name that can never leave that folder,
// written atomically without replacing a different file, and an index so a file is fetched only once.
//
// Files are 0600 in a 0700 folder, like everything else in data_dir: homework sheets and message
// attachments can hold a child's personal data, and the bridge runs as its own user. Someone who wants
// a dashboard to show them can copy or share them deliberately.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { isLeftoverTemp, safeName, syncFolder, writeJson, writeSynced } from './files.js';
import { readStored } from './stored.js';

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
  const cleaned = clean(raw ?? '');
  return cleaned || clean(fallback) || 'plik';
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
  const stem = dot > 0 ? name.slice(0, dot) : name;
  if (RESERVED.test(stem)) name = `_${name}`;
  return cut(name, MAX_NAME_BYTES);
}

/** Cuts a name to a byte budget on a character boundary, keeping a short extension. */
function cut(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= MAX_EXTENSION ? name.slice(dot) : '';
  let stem = ext ? name.slice(0, dot) : name;
  const budget = maxBytes - Buffer.byteLength(ext);
  const chars = [...stem];
  while (Buffer.byteLength(stem) > budget) {
    chars.pop();
    stem = chars.join('');
  }
  return `${stem.replace(/[\s.]+$/, '') || 'plik'}${ext}`;
}

/** name.ext -> name (n).ext */
function withSuffix(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

export interface SavedFile {
  /** Absolute path of the saved file. */
  path: string;
  /** Its name in the child's folder. */
  name: string;
  size: number;
}

interface Index {
  version: 1;
  /** Download key (e.g. homework-771) -> file name in the folder. */
  files: Record<string, string>;
}

const indexSchema = z.object({ version: z.literal(1), files: z.record(z.string(), z.string()) });

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
  private readonly options: DownloadStoreOptions;
  private index: Index | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(options: DownloadStoreOptions) {
    this.options = options;
  }

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
   * folder): the leading dot keeps it apart from every real name, `.part` marks it as a leftover if
   * the process stops.
   */
  tempPath(): string {
    return join(this.dir, `.${randomBytes(8).toString('hex')}${PART}`);
  }

  /** Saves a body held in memory (see place()). */
  async save(body: Buffer, name: string | undefined, fallback: string, key?: string): Promise<SavedFile> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = this.tempPath();
    try {
      await writeSynced(temp, body);
      return await this.place(temp, body.length, name, fallback, key);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /**
   * Gives a finished temporary file (tempPath()) a safe form of name. An existing file with the same
   * name and other content is kept, and this one gets a " (2)" suffix; the same content reuses the
   * existing file. The caller removes the temporary file afterwards.
   */
  async place(temp: string, size: number, name: string | undefined, fallback: string, key?: string): Promise<SavedFile> {
    const base = safeFileName(name, fallback);
    for (let n = 1; n <= 999; n++) {
      const candidate = n === 1 ? base : withSuffix(base, n);
      const path = this.inside(candidate);
      if (await placeNew(temp, path, this.options.link)) {
        // The new name survives a power cut only once the folder is on the disk too.
        await syncFolder(this.dir);
        return await this.remember(key, { path, name: candidate, size });
      }
      if (await sameContent(path, temp, size)) return await this.remember(key, { path, name: candidate, size });
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
    const write = this.writing.then(() => writeJson(join(this.dir, '.index.json'), index));
    this.writing = write.catch(() => undefined);
    await write;
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

/** The end of a temporary download's name. */
const PART = '.part';

/**
 * Removes the temporary files a stopped process left in every child's downloads folder (called once
 * at start, before any download runs). Resolves to how many it removed.
 */
export async function removeLeftoverParts(dataDir: string): Promise<number> {
  const root = resolve(dataDir, 'downloads');
  const children = await readdir(root, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const child of children.filter((e) => e.isDirectory())) {
    const names = await readdir(join(root, child.name)).catch((): string[] => []);
    for (const name of names.filter(isLeftoverTemp)) {
      await unlink(join(root, child.name, name)).then(
        () => removed++,
        () => undefined,
      );
    }
  }
  return removed;
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
