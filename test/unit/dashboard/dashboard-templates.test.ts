// The dashboard's template files (src/ha/templates/*.jinja): every file is listed and read, the
// generator fills each variable with the child's entity id (none for one the child lacks), and a
// template that reads an attribute its block does not declare is refused.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filled, reads, templateDir, TEMPLATES } from '../../../src/ha/dashboard-templates.js';
import { ChildEntities } from '../../../src/ha/dashboard-cards.js';
import { DASHBOARD_TEXT } from '../../../src/i18n/dashboard-text.js';
import { ENTITIES } from '../../../src/features/index.js';
import { libraryDue } from '../../../src/features/library/library.js';
import { newestMessage, unreadMessages } from '../../../src/features/messages/messages.js';

const ania = new ChildEntities({ id: 'ania', name: 'Ania', entities: ENTITIES });
const t = DASHBOARD_TEXT.pl;

describe("the dashboard's template files", () => {
  it('are all listed, and each opens with a comment that says what it is for', () => {
    const files = readdirSync(templateDir())
      .filter((f) => f.endsWith('.jinja'))
      .map((f) => f.replace(/\.jinja$/, ''));
    expect(files.sort()).toEqual([...TEMPLATES].sort());
  });

  it('get entity ids (none for an entity the child lacks) and only the words they use', () => {
    const noUnread = new ChildEntities({ id: 'jan', name: 'Jan', entities: ENTITIES.filter((e) => e.key !== unreadMessages.key) });
    const text = filled(noUnread, t, 'message-newest', {
      newest_message: reads(newestMessage, 'sender', 'date', 'read', 'preview'),
      unread_messages: reads(unreadMessages),
    });
    expect(text).toContain('{%- set newest_message = "sensor.jan_newest_message" -%}');
    expect(text).toContain('{%- set unread_messages = none -%}');
    expect(text).toContain('"newestMessage":"Najnowsza wiadomość"');
    expect(text).not.toContain('"library"');
    // The file's opening comment stays out of the dashboard.
    expect(text).not.toContain('{#- The newest inbox message');
  });

  it('refuses a template that reads an attribute its block does not declare, or leaves one unread', () => {
    expect(() => filled(ania, t, 'library', { library: reads(libraryDue) })).toThrow(
      /library\.jinja reads library \(library_due\) as items, declared none/,
    );
    // A name the feature does not publish fails the typecheck before it could reach a template.
    // @ts-expect-error: library_due has no attribute 'count'
    expect(() => filled(ania, t, 'library', { library: reads(libraryDue, 'items', 'count') })).toThrow(/declared items, count/);
    expect(filled(ania, t, 'library', { library: reads(libraryDue, 'items') })).toContain('{%- set library = "sensor.ania_library_due" -%}');
  });
});
