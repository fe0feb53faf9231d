// /files/<child>/<message id>/<name> (interface 7.4): a message attachment the bridge saved, streamed
// from data_dir/downloads/<child>/messages/<message id>/ and nowhere else; /files/<child>/school/<id>/<name>
// a school file, from data_dir/downloads/<child>/school/<id>/, and /files/<child>/homework/<file id>/<name>
// a homework file, from data_dir/downloads/<child>/homework/<file id>/. The path's parts are checked
// to be exactly what the bridge itself would have written (a safe file name, a numeric id, a known
// child), and only a regular file is served, as an attachment, never shown inline. Links are followed
// only to where they really lead: the file's real path must lie inside the real downloads folder (in
// the app a link itself, to /media/dziennik2mqtt, which other apps can write), so a linked folder
// cannot reach the cookie jars in data_dir/sessions.
import { lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { safeName } from '../store/files.js';
import { safeFileName } from '../store/downloads.js';
import type { Route, WebData } from './types.js';

const MESSAGE_ID = /^\d{1,20}$/;

/** The route; `dataDir` is the config's data_dir. */
export function fileRoute(data: WebData, dataDir: string): Route {
  return (req) => {
    const [first, child, ...parts] = req.segments;
    if (first !== 'files') return undefined;
    // A message id is all digits, so "school" or "homework" never names a message.
    const [folder, id, name, ...rest] = parts[0] === 'school' || parts[0] === 'homework' ? parts : ['messages', ...parts];
    if (child === undefined || id === undefined || name === undefined || rest.length > 0) return notFound();
    if (!data.children().some((c) => c.id === child) || !MESSAGE_ID.test(id)) return notFound();
    // The store never writes a name that safeFileName changes, nor one starting with a dot (its index and temp files).
    if (name !== safeFileName(name) || name.startsWith('.')) return notFound();
    const found = realFileIn(join(dataDir, 'downloads'), join(safeName(child), folder ?? 'messages', id, name));
    if (found === undefined) return notFound();
    const { path, size } = found;
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': disposition(name),
        'Content-Length': String(size),
      },
      file: path,
    };
  };
}

/**
 * The real path and size of `relative` under `root`, or undefined unless it is a regular file (not a
 * link) whose real path lies inside root's real path. The server then opens that real path without
 * following a link (O_NOFOLLOW), so a file swapped for a link after this look is not followed either.
 */
export function realFileIn(root: string, relative: string): { path: string; size: number } | undefined {
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

/** attachment; filename="ascii fallback"; filename*=UTF-8''exact (RFC 6266). */
function disposition(name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'plik';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function notFound(): { status: number; headers: Record<string, string>; body: string } {
  return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Not found.\n' };
}
