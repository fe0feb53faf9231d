// A portal endpoint is written where it is declared (src/engine/resources/, or a feature's own resources.ts for
// what it alone reads), and every other place takes it from there (issue 57, item 5): the answer caps, `check`'s probes, the identity's reads. This counts
// the register's endpoint strings outside src/engine/resources/ (the simulator and the bench aside, which play
// the portal; the words in src/i18n/ aside, where "Grades" is an English word): every string literal
// (comments left out, by TypeScript's own parser) that is a declared endpoint or the change feed's, or
// begins a keyed one (`Users/${id}`), and every literal a gateway is asked for.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../../src/features/resources.js';
import { CHANGE_FEED_ENDPOINTS } from '../../../../src/portal/change-feed.js';

const SRC = join(import.meta.dirname, '../../../../src');
const ASIDE = ['engine/resources/', 'simulator/', 'bench/', 'i18n/'];
/** At most this many endpoint strings outside the declarations. */
const MOST = 8;

const ENDPOINTS = [...RESOURCES.filter((r) => r.host === 'register').flatMap((r) => r.endpoints), ...Object.values(CHANGE_FEED_ENDPOINTS)];
const EXACT = new Set(ENDPOINTS.map((e) => e.replace(/\/<[a-z]+>.*$/, '')));
/** The part before the key of a keyed endpoint (`Users/` of `Users/<id>`). */
const KEYED = ENDPOINTS.filter((e) => e.includes('<')).map((e) => e.slice(0, e.indexOf('<')));

/** A file that may hold one: a quote and then an endpoint's first word, or a gateway. */
const QUICK = new RegExp(`gateway|['"\`](${[...new Set(ENDPOINTS.map((e) => e.split(/[/<]/)[0] || e.split('/')[1]))].join('|')})`);

/** The text of a literal up to its first substitution, and whether it has one. */
function literal(node: ts.Node): { text: string; keyed: boolean } | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { text: node.text, keyed: false };
  if (ts.isTemplateExpression(node)) return { text: node.head.text, keyed: true };
  return undefined;
}

/** The endpoint strings of one file's code, as `file:line text`. */
export function endpointStrings(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found = new Map<ts.Node, string>();
  const visit = (node: ts.Node): void => {
    // A literal type (`Answer['Me']`) names a field of an answer, not a request.
    const lit = node.parent !== undefined && ts.isLiteralTypeNode(node.parent) ? undefined : literal(node);
    if (lit !== undefined && (lit.keyed ? KEYED.includes(lit.text) || EXACT.has(lit.text.replace(/\/$/, '')) : EXACT.has(lit.text)))
      found.set(node, lit.text);
    // Whatever a gateway is asked for is an endpoint, declared or not.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /gateway$/i.test(node.expression.expression.getText(sf))) {
      const method = node.expression.name.text;
      const arg = node.arguments[method === 'answer' ? 1 : 0];
      const lit2 = arg === undefined ? undefined : literal(arg);
      // One built from a name (`${CHANGES}/${batch}`) is that name's.
      if (arg !== undefined && lit2 !== undefined && lit2.text !== '' && ['get', 'post', 'answer', 'page'].includes(method))
        found.set(arg, lit2.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...found].map(([node, text]) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} ${text}`);
}

function sources(): string[] {
  return readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !ASIDE.some((a) => f.startsWith(a)) && !/^features\/[^/]+\/resources\.ts$/.test(f));
}

describe('the endpoints, written where they are declared', () => {
  it(`spells at most ${MOST} endpoint strings outside the declarations`, () => {
    const all = sources().flatMap((f) => {
      const text = readFileSync(join(SRC, f), 'utf8');
      // Parsed only where a quoted endpoint or a gateway stands at all (parsing all of src/ takes seconds).
      return QUICK.test(text) ? endpointStrings(relative(SRC, join(SRC, f)), text) : [];
    });
    expect(all.length, all.join('\n')).toBeLessThanOrEqual(MOST);
  });

  it('counts a declared endpoint, a keyed one and an undeclared one a gateway is asked for; not a comment', () => {
    const code = [
      "// gateway.get('Grades') in a comment",
      "const caps = new Set(['Grades', 'SchoolNotices']);",
      'const user = (id: string) => gateway.get(`Users/${id}`, schema);',
      "const entries = portal.gateway.get('TimetableEntries', schema);",
      "const word = 'grades';",
      "type Me = Answer['Me'];",
      "const ack = gateway.answer('DELETE', `${CHANGES}/${batch}`);",
    ].join('\n');
    expect(endpointStrings('x.ts', code).map((s) => s.split(' ')[1])).toEqual(['Grades', 'SchoolNotices', 'Users/', 'TimetableEntries']);
  });
});
