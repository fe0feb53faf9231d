// The school-files feature, a few times a day: the school's shared files (spec 2.8,
// SchoolFiles) -> school_files and school_file events. The list changes a few times a term, so it is
// read every 8 hours, never in the first cycle after a start (a start's requests are the budget's
// dearest). With `downloads`, the newest files are saved through the portal's single-use keys (spec 4.6)
// in the background and served by the web server at /files/<child>/school/<id>/<name>.
import { basename } from 'node:path';
import { schoolFileEvents, schoolFiles, type SchoolFileItem, type SchoolFilePayload } from '../../rules/school-files.js';
import { want } from '../../engine/resource.js';
import { SCHOOL_FILES } from './resources.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { feature } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { savedFiles } from '../screens/shown.js';
import { shape, statesOf, type Events, type PublishedAs } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { savedFileUrl } from '../../portal/attachments/saved.js';
import { schoolFilesAsk, type SchoolFilesAsk } from './ask.js';

/** How many of the newest files are listed and (with downloads) saved. */
const LISTED = 10;

/** One school file as published: `path` and `url` once it is saved (downloads on). */
export type SchoolFileFacts = { id: string; name: string; date: string | null; path?: string; url?: string };

/** The attributes of school_files: the newest files first. */
export type SchoolFilesFacts = { files: SchoolFileFacts[] };

/** What school_files shows: the school's files, newest first, where each saved one is, and the child's id in its address. */
export type SchoolFilesView = { items: readonly SchoolFileItem[]; saved: (id: string) => string | undefined; child: string };

export const schoolFilesEntity = sensor(
  'school_files',
  { en: 'School files', pl: 'Pliki szkoły', uk: 'Шкільні файли' },
  {
    icon: 'mdi:file-cabinet',
    stateClass: 'measurement',
    attributes: shape<SchoolFilesFacts>(),
    module: [SCHOOL_FILES],
    // Nothing known of the files (refused, or never read: null): unknown, its list empty.
    state: (view: SchoolFilesView | null) =>
      view === null ? { state: null, attributes: { files: [] } } : renderSchoolFiles(view.items, view.saved, view.child),
  },
);
export const schoolFileEvent = eventEntity(
  'school_file',
  { en: 'New school file', pl: 'Nowy plik szkoły', uk: 'Новий шкільний файл' },
  'mdi:file-document-plus',
  { payload: shape<SchoolFilePayload>(), module: [SCHOOL_FILES] },
);

/** The newest files the board's school box shows. */
const SHOWN_FILES = 3;

export const schoolFilesFeature = feature({
  name: 'school-files',
  downloads: true,
  reads: () => [want(SCHOOL_FILES)],
  entities: [schoolFilesEntity, schoolFileEvent],
  ask: schoolFilesAsk,
  // The school's newest files in the school's box (a saved one is a link).
  board: ({ state }) => ({ school: { files: savedFiles(state(schoolFilesEntity)?.attributes?.files, 'school').slice(0, SHOWN_FILES) } }),
  dashboard: {
    // A saved file links to the board's own address (base) + its url.
    child: [
      {
        section: 'messages',
        block: (e, t, { base }) =>
          ifKnown(e, schoolFilesEntity, () =>
            markdown(e, t, 'features/school-files/school-files', { ...keyed(schoolFilesEntity, 'files'), base: { text: base } }),
          ),
      },
    ],
  },
  create: (access) => ({ compute: (ctx) => compute(ctx, access.childId), unknown }),
});

/** Nothing known of the files: what a start's first pass publishes on a first run. */
const unknown = () => statesOf([schoolFilesEntity], null);

function compute(ctx: SourceContext, childId: () => string): Promise<SourceResult> {
  const answer = ctx.cache.get(SCHOOL_FILES);
  if (answer === undefined)
    return Promise.resolve({
      states: unknown(),
      ask: { files: null, absent: ctx.cache.refused(SCHOOL_FILES) } satisfies SchoolFilesAsk,
    });
  const items = schoolFiles(answer.Data);
  const saved = saveInBackground(ctx, items.slice(0, LISTED));
  return Promise.resolve({
    states: statesOf([schoolFilesEntity], { items, saved, child: childId() }),
    events: { school_file: schoolFileEvents(items) } satisfies Events<typeof schoolFileEvent>,
    ask: { files: items, absent: false } satisfies SchoolFilesAsk,
  });
}

/** Starts the downloads of the newest files (each once); answers where the saved ones are. */
function saveInBackground(ctx: SourceContext, files: readonly SchoolFileItem[]): (id: string) => string | undefined {
  const downloads = ctx.downloads;
  if (!downloads) return () => undefined;
  for (const f of files) {
    const url = f.downloadUrl;
    if (url === null) continue;
    downloads.files.request(`school:${f.id}`, ctx.now, () => downloads.downloader.inFolder(['school', f.id]).schoolFile(url, f.name));
  }
  return (id) => downloads.files.pathOf(`school:${id}`);
}

/** school_files: how many files the school shares; the newest first, with where each is saved. */
export function renderSchoolFiles(
  items: readonly SchoolFileItem[],
  saved: (id: string) => string | undefined,
  child: string,
): PublishedAs<SchoolFilesFacts> {
  const files = items.slice(0, LISTED).map((f): SchoolFileFacts => {
    const path = saved(f.id);
    return {
      id: f.id,
      name: f.name,
      date: f.date,
      ...(path === undefined ? {} : { path, url: savedFileUrl(child, ['school', f.id, basename(path)]) }),
    };
  });
  return withAttributes(items.length, { files });
}
