// The portal resources only the notes feature reads: the notes and their categories.
import { noteCategoriesResponse, notesResponse } from '../../portal/schemas/notes.js';
import { registerResource } from '../../engine/resource.js';
import { BY_THE_HOUR } from '../../engine/resources/ages.js';
import { lookupResource } from '../../engine/resources/lookups.js';

export const NOTES = registerResource({ endpoint: 'Notes', yearOfRecords: true, schema: notesResponse, fresh: BY_THE_HOUR, changeFeed: true });
export const NOTE_CATEGORIES = lookupResource('Notes/Categories', noteCategoriesResponse, (r) => r.Categories);
