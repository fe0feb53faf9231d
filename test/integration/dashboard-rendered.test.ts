// Every card of the generated dashboard rendered with Jinja2 as Home Assistant renders it
// (test/helpers/ha-templates.py), strictly, against the states the real bridge published for Ania
// from the simulated school, in every language of the dashboard: no template fails, none prints
// "None", and the text a parent reads is there (a lesson moved to Thursday says so).
import { describe, expect, it } from 'vitest';
import { dashboard } from '../../src/outputs/homeassistant/dashboard.js';
import { STALE_SCAN_MS } from '../../src/outputs/mqtt/sink.js';
import { LANGUAGES } from '../../src/config/language.js';
import { ENTITIES } from '../../src/features/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { renderTemplates, skipWithoutJinja, type TemplateJob } from '../helpers/blueprints.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';
import { publishedStates } from '../helpers/dashboard-shown.js';

// A Monday's second lesson, as the screenshots; Tuesday's first lesson moves to Thursday.
const NOW = '2026-11-23T09:30:00+01:00';
const school = simulatedSchool(NOW);

type States = NonNullable<TemplateJob['states']>;

const haStates = (h: Harness): States => publishedStates(h, 'ania');

/** Every markdown card's template in the dashboard, by its path. */
function templates(node: unknown, path = '', found: { path: string; template: string }[] = []): { path: string; template: string }[] {
  if (Array.isArray(node)) node.forEach((n, i) => templates(n, `${path}[${i}]`, found));
  else if (node && typeof node === 'object') {
    const card = node as Record<string, unknown>;
    if (card.type === 'markdown' && typeof card.content === 'string') found.push({ path, template: card.content });
    for (const [key, value] of Object.entries(card)) templates(value, `${path}.${key}`, found);
  }
  return found;
}

async function render(found: readonly { template: string }[], states: States): Promise<string[]> {
  return (await renderTemplates(found.map((f) => ({ template: f.template, variables: {}, states, strict: true, now: NOW })))).map((r) =>
    'error' in r ? `ERROR ${r.error}` : String(r.value),
  );
}

/**
 * What a parent reads, per language: today's heading, the moved lesson, and words of each card; beside
 * the averages Matematyka's proposed semester grade, what Język angielski's next threshold needs, Technika's
 * points as a percentage, and Religia at risk; among the newest grades an np with what it means.
 */
const EXPECTED: Record<(typeof LANGUAGES)[number], readonly string[]> = {
  pl: [
    '### Poniedziałek 23.11',
    // In the moved lesson's own line on Tuesday, in the bridge's words (the note's dots escaped for Markdown).
    'Matematyka _(przeniesiona na czw&#46; 26&#46;11, lekcja ',
    '### Wtorek 24.11',
    'Najnowsza wiadomość',
    '#### Biblioteka\n- **Dzieci z Bullerbyn**',
    'Najnowsze oceny',
    // A mark that is no grade says what it means, in the bridge's language (issue 52).
    '- **np** <small>(nieprzygotowany)</small> Religia',
    '| Matematyka<br><small>propozycja śródroczna: **5** · 2× **6** da ocenę wyżej</small> | 4,62 | **4** ↓ |',
    '| Język angielski<br><small>na 4,75 wystarczy **5&#43;**</small> | 4,67 | **4** ↓ |',
    // A grade's teacher beside its day, its subject's forecast (newest_grade's) and its comment under it; the report card's forecast beside the averages.
    'Język angielski <small>Katarzyna Wójcik · czw. 19.11 · prognoza **4**</small><br><small><i>Bardzo dobra wymowa, brawo&#33;</i></small>',
    'prognoza na świadectwie: **4,20**',
    '| Technika | 78,8% pkt |',
    '⚠️ **Zagrożenie:** Religia 1,00',
    // The lessons card: what to revise before Tuesday's test, the lessons missed on Thursday, the latest topics.
    '#### 📚 Do powtórki: Przyroda <small>wt. 24.11</small>\n- <small>pt. 20.11</small> Krajobraz nadmorski',
    '#### Lekcje do nadrobienia\n- <small>czw. 19.11, 3.</small> **Matematyka**: Prostopadłościan i sześcian',
    '#### Ostatnio na lekcjach\n- <small>pon. 23.11</small> **Język angielski**: Countable and uncountable nouns',
  ],
  en: [
    '### Monday 23 Nov',
    // A lesson's change is in the bridge's words, its language (Polish here) as every note is, whatever the dashboard's.
    'Matematyka _(przeniesiona na czw&#46; 26&#46;11, lekcja ',
    '### Tuesday 24 Nov',
    'Newest message',
    '#### Library\n- **Dzieci z Bullerbyn**',
    'Newest grades',
    '| Matematyka<br><small>proposed semester: **5** · 2× **6** for a grade more</small> | 4.62 | **4** ↓ |',
    '| Język angielski<br><small>**5&#43;** lifts it to 4.75</small> | 4.67 | **4** ↓ |',
    'report card forecast: **4.20**',
    '| Technika | 78.8% pts |',
    '⚠️ **At risk:** Religia 1.00',
    '#### 📚 To revise: Przyroda <small>Tue 24 Nov</small>',
    '#### Lessons to catch up',
    '#### Lately in lessons',
  ],
  uk: [
    '### Понеділок 23.11',
    'Matematyka _(przeniesiona na czw&#46; 26&#46;11, lekcja ',
    '### Вівторок 24.11',
    'пропозиція семестрова: **5**',
    '| Technika | 78,8% бал. |',
    '**Під загрозою:** Religia 1,00',
    '#### 📚 Повторити: Przyroda',
    '#### Уроки, які треба надолужити',
  ],
};

describe.skipIf(skipWithoutJinja())('the dashboard rendered against the published states (python3-jinja2)', () => {
  it('renders every card in every language, with the moved lesson on its new day', async () => {
    const ania = DEMO_ACCOUNTS[0]!;
    const schoolDays = school.sim.schoolDays(ania.login);
    const first = schoolDays.lessonsOn('2026-11-24')[0]!;
    const last = Math.max(...schoolDays.lessonsOn('2026-11-26').map((l) => l.lessonNo));
    school.sim
      .account(ania.login)
      .moveLesson({ from: { date: '2026-11-24', lessonNo: first.lessonNo }, to: { date: '2026-11-26', lessonNo: last + 1 } });
    // Matematyka's proposed semester grade, and a 1 in Religia (at risk); ids of the simulator's school.
    school.sim
      .account(ania.login)
      .addGrade({ subject: 5012, category: 307, grade: '5', period: 'semester_proposal', date: '2026-11-20', addDate: '2026-11-20 14:00:00' });
    school.sim.account(ania.login).addGrade({ subject: 5021, category: 301, grade: '1', date: '2026-11-19', addDate: '2026-11-19 10:00:00' });
    // And an np (unprepared), a mark that is no grade.
    school.sim.account(ania.login).addGrade({ subject: 5021, category: 301, grade: 'np', date: '2026-11-20', addDate: '2026-11-20 15:00:00' });
    const h = await school.firstPasses([
      'timetable_today',
      'timetable_tomorrow',
      'newest_message',
      'library_due',
      'newest_grade',
      'average',
      'grade_at_risk',
      'lesson_topics',
      'catch_up',
      'next_test',
    ]);
    // The library is read at the second pass: before, its card shows nothing (never "no books borrowed").
    await h.advanceUntil(() => !['None', undefined].includes(h.state('ania', 'library_due')), 'the library read at the second pass', 30);
    const states = haStates(h);
    for (const lang of LANGUAGES) {
      const found = templates(dashboard([{ id: 'ania', name: 'Ania', entities: ENTITIES }], lang));
      expect(found.length, lang).toBeGreaterThan(10);
      const shown = await render(found, states);
      shown.forEach((text, i) => {
        expect(text, `${lang} ${found[i]!.path}`).not.toMatch(/^ERROR|\bNone\b/);
      });
      const all = shown.join('\n');
      for (const words of EXPECTED[lang]) expect(all, lang).toContain(words);
    }
    // A misspelled macro fails the render (strict, as the test asks), it does not print nothing.
    const today = templates(dashboard([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl')).find((f) =>
      f.template.includes('capitalized(longDay(d))'),
    )!;
    expect((await render([{ template: today.template.replace('capitalized(longDay(d))', 'capitalized(lnogDay(d))') }], states))[0]).toMatch(
      /^ERROR .*lnogDay/,
    );
  }, 60_000);

  it("shows the bridge device's broker, uptime and memory and the child's figures in the Bridge view, each read from what the bridge published", async () => {
    const h = await school.firstPasses(['requests_today', 'logins_today', 'last_read', 'session_age']);
    const states = haStates(h);
    const board = dashboard([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl', { baseTopic: h.base }) as { views: { path: string }[] };
    const view = board.views.find((v) => v.path === 'bridge');
    const named: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'entity' && typeof value === 'string') named.push(value);
          else walk(value);
        }
      }
    };
    walk(view);
    const bridge = {
      connection: `binary_sensor.${h.base}_bridge_connection_state`,
      uptime: `sensor.${h.base}_bridge_uptime`,
      memory: `sensor.${h.base}_bridge_memory`,
      problem: `binary_sensor.${h.base}_bridge_problem`,
    };
    const figures = ['sensor.ania_logins_today', 'sensor.ania_requests_today', 'sensor.ania_last_read', 'sensor.ania_session_age'];
    expect(named).toEqual(expect.arrayContaining([...figures, ...Object.values(bridge)]));
    // The child's figures have the states the bridge published: one login, the requests of the first passes.
    expect(states['sensor.ania_logins_today']?.state).toBe('1');
    expect(Number(states['sensor.ania_requests_today']?.state)).toBeGreaterThan(10);
    expect(states['sensor.ania_last_read']?.state).toMatch(/^2026-11-23T09:3\d/);
    // The bridge device as Home Assistant reads it: its discovery's value templates over bridge/health.
    const discovery = h.rec.json(`${h.prefix}/device/${h.base}_bridge/config`) as {
      cmps: Record<string, { default_entity_id: string; value_template?: string; state_topic: string }>;
    };
    const ids = Object.values(discovery.cmps).map((c) => c.default_entity_id);
    for (const id of named.filter((n) => n.includes('_bridge_'))) expect(ids, 'an entity the bridge announced').toContain(id);
    const health = h.rec.json(`${h.base}/bridge/health`);
    const [uptime, memory] = (
      await renderTemplates(
        ['uptime', 'memory'].map((key) => ({
          template: discovery.cmps[key]!.value_template!,
          variables: { value_json: health },
          strict: true,
          now: NOW,
        })),
      )
    ).map((r) => ('error' in r ? `ERROR ${r.error}` : String(r.value)));
    // The bridge started when the harness started it: the retained-config scan's wait before the test's moment.
    expect(uptime).toMatch(/^2026-11-23T\d\d:\d\d:\d\d\+01:00$/);
    expect(Date.parse(uptime!)).toBe(Date.parse(NOW) - STALE_SCAN_MS);
    expect(Number(memory)).toBeGreaterThan(10);
    expect(h.rec.last(`${h.base}/bridge/state`)?.text).toBe('online');
  }, 60_000);
});
