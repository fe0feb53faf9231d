// The reply that hands out a simulated file, as the sandbox sends it.
import type { SimFile } from './download-state.js';
import type { Reply } from './types.js';

/** The file as an attachment: filename* carries the UTF-8 name, filename an ASCII stand-in. */
export function fileReply(file: SimFile, login: string): Reply {
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    status: 200,
    headers: {
      'Content-Type': file.type,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'Cache-Control': 'no-store',
    },
    body: file.body,
    login,
  };
}
