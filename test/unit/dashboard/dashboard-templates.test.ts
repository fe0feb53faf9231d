// The dashboard's template files (each beside its feature, the shared macros in src/outputs/homeassistant/templates/): every file
// is read by a card of the dashboard and opens with what it is for, the generator fills each variable with the
// child's entity id (none for one the child lacks), and a template that reads an attribute its block does not
// declare is refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filled, reads, templateRoot, templateText } from '../../../src/features/screens/templates.js';
import { ChildEntities } from '../../../src/features/screens/child-entities.js';
import { dashboard } from '../../../src/outputs/homeassistant/dashboard.js';
import { DASHBOARD_TEXT } from '../../../src/i18n/dashboard-text.js';
import { ENTITIES } from '../../../src/features/index.js';
import { libraryDue } from '../../../src/features/library/library.js';
import { newestMessage, unreadMessages } from '../../../src/features/messages/messages.js';

const ania = new ChildEntities({ id: 'ania', name: 'Ania', entities: ENTITIES });
const t = DASHBOARD_TEXT.pl;

describe("the dashboard's template files", () => {
  it('are each read by a card of the dashboard, and each opens with a comment that says what it is for', () => {
    const root = templateRoot();
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jinja'))
      .map((f) => f.replace(/\.jinja$/, ''));
    expect(files.length).toBeGreaterThan(20);
    // A school child and a kindergarten child between them have every card.
    const children = [
      { id: 'ania', name: 'Ania', entities: ENTITIES },
      { id: 'zosia', name: 'Zosia', entities: ENTITIES, kind: 'kindergarten' as const },
    ];
    const contents = JSON.stringify(dashboard(children, 'pl', { boardUrl: 'http://h:8099/' }));
    for (const file of files) {
      expect(readFileSync(join(root, `${file}.jinja`), 'utf8'), file).toMatch(/^\{#/);
      expect(file.startsWith('outputs/homeassistant/templates/') || file.startsWith('features/'), file).toBe(true);
      expect(contents.includes(JSON.stringify(templateText(file)).slice(1, -1)), `${file} is in no card`).toBe(true);
    }
  });

  it('get entity ids (none for an entity the child lacks) and only the words they use', () => {
    const noUnread = new ChildEntities({ id: 'jan', name: 'Jan', entities: ENTITIES.filter((e) => e.key !== unreadMessages.key) });
    const text = filled(noUnread, t, 'features/messages/message-newest', {
      newest_message: reads(newestMessage, 'id', 'sender', 'date', 'read', 'preview', 'unread'),
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
    expect(() => filled(ania, t, 'features/library/library', { library: reads(libraryDue) })).toThrow(
      /library\.jinja reads library \(library_due\) as items, declared none/,
    );
    // A name the feature does not publish fails the typecheck before it could reach a template.
    // @ts-expect-error: library_due has no attribute 'count'
    expect(() => filled(ania, t, 'features/library/library', { library: reads(libraryDue, 'items', 'count') })).toThrow(/declared items, count/);
    expect(filled(ania, t, 'features/library/library', { library: reads(libraryDue, 'items') })).toContain(
      '{%- set library = "sensor.ania_library_due" -%}',
    );
  });
});
