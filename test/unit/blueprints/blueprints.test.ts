// The blueprints under blueprints/automation/dziennik2mqtt/: each parses, uses only the inputs it
// declares (and every one it declares), takes the children's entities by selector (event entities of the
// MQTT integration, as many children's as the family has: interface 17.2), describes itself in Polish and
// English, and can be imported with the my.home-assistant.io link the docs give. A blueprint that speaks several languages has the same words
// in each, and offers exactly those.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { InputRef } from '../../helpers/blueprints.js';
import { loadBlueprint, usedInputs } from '../../helpers/blueprints.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDER = 'blueprints/automation/dziennik2mqtt';
const FILES = readdirSync(join(REPO, FOLDER))
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const repoUrl = (parse(readFileSync(join(REPO, 'repository.yaml'), 'utf8')) as { url: string }).url;
const automationsPage = readFileSync(join(REPO, 'docs/automations.md'), 'utf8');

// These start from a sentence, a time or a sensor's change, not from an event.
const WITHOUT_EVENTS = [
  'ask_aloud.yaml',
  'attendance_low.yaml',
  'average_drop.yaml',
  'catch_up.yaml',
  'forecast_drop.yaml',
  'justify_absence.yaml',
  'leave_pickup.yaml',
  'morning_briefing.yaml',
  'revision.yaml',
  'tomorrow.yaml',
  'trip_reminder.yaml',
  'wake_up.yaml',
  'weekly_ai_summary.yaml',
  'weekly_summary.yaml',
];

const importLink = (sourceUrl: string): string =>
  `https://my.home-assistant.io/redirect/blueprint_import/?blueprint_url=${encodeURIComponent(sourceUrl)}`;

describe('blueprints', () => {
  it('are the thirty-one the docs promise', () => {
    expect(FILES).toEqual([
      'absence.yaml',
      'achievement.yaml',
      'ask_aloud.yaml',
      'attendance_low.yaml',
      'average_drop.yaml',
      'catch_up.yaml',
      'copy_to_calendar.yaml',
      'forecast_changed.yaml',
      'forecast_drop.yaml',
      'homework_todo.yaml',
      'justification.yaml',
      'justify_absence.yaml',
      'leave_pickup.yaml',
      'lucky_number.yaml',
      'morning_briefing.yaml',
      'new_grade.yaml',
      'new_homework.yaml',
      'new_message.yaml',
      'new_notice.yaml',
      'new_test.yaml',
      'note.yaml',
      'plan_change_tomorrow.yaml',
      'refresh_calendars.yaml',
      'revision.yaml',
      'school_file.yaml',
      'school_year.yaml',
      'tomorrow.yaml',
      'trip_reminder.yaml',
      'wake_up.yaml',
      'weekly_ai_summary.yaml',
      'weekly_summary.yaml',
    ]);
  });

  describe.each(FILES)('%s', (file) => {
    const bp = loadBlueprint(join(REPO, FOLDER, file));
    const declared = Object.keys(bp.blueprint.input);

    it('is an automation blueprint whose every !input is declared, and every declared input used', () => {
      expect(bp.blueprint.domain).toBe('automation');
      const { blueprint: _declaration, ...automation } = bp;
      const used = usedInputs(automation);
      expect(used.filter((name) => !declared.includes(name))).toEqual([]);
      expect(declared.filter((name) => !used.includes(name))).toEqual([]);
      for (const key of ['triggers', 'actions']) expect(bp[key], key).toBeDefined();
    });

    it('has the same words in each language it offers', () => {
      const words = (bp.variables as Record<string, unknown> | undefined)?.words as Record<string, Record<string, unknown>> | undefined;
      if (words === undefined) return;
      const offered = (bp.blueprint.input.language!.selector!.select as { options: { value: string }[] }).options.map((o) => o.value);
      expect(offered).toEqual(['pl', 'en', 'uk']);
      expect(Object.keys(words)).toEqual(offered);
      for (const lang of offered) expect(Object.keys(words[lang]!), lang).toEqual(Object.keys(words.pl!));
    });

    it("takes the children's events by selector: event entities of the MQTT integration, as many as chosen", () => {
      const eventInputs = Object.entries(bp.blueprint.input).filter(([name]) => /event/.test(name));
      // The voice and the morning briefing start from a sentence or a time, not from an event.
      expect(eventInputs.length > 0).toBe(!WITHOUT_EVENTS.includes(file));
      if (eventInputs.length === 0) return;
      for (const [name, decl] of eventInputs) {
        expect(decl.selector, name).toMatchObject({ entity: { filter: [{ integration: 'mqtt', domain: 'event' }] } });
        expect((decl.selector?.entity as { multiple?: boolean } | undefined)?.multiple === true, name).toBe(true);
      }
      // The triggers listen to those inputs (a trigger of Home Assistant's own, its start, names no entity).
      const triggers = bp.triggers as { entity_id?: unknown }[];
      expect(triggers.map((t) => (t.entity_id as InputRef | undefined)?.name)).toEqual(expect.arrayContaining([eventInputs[0]![0]]));
    });

    it('describes itself and its inputs in Polish and English', () => {
      expect(bp.blueprint.name).toMatch(/^dziennik2mqtt: .+ \/ .+$/);
      expect(bp.blueprint.description).toMatch(/^PL: [\s\S]+\nEN: /);
      for (const [name, decl] of Object.entries(bp.blueprint.input)) expect(decl.name, name).toMatch(/ \/ /);
    });

    it('can be imported: its source_url is its own file in the repository, linked from docs/automations.md', () => {
      expect(bp.blueprint.source_url).toBe(`${repoUrl}/blob/main/${FOLDER}/${file}`);
      expect(automationsPage).toContain(importLink(bp.blueprint.source_url));
    });
  });
});
