// docs/development.md keeps the project's words, one meaning each, between its glossary markers: a term is
// a bold word followed by a colon or by its meaning in parentheses. A term defined twice, in the glossary or
// again elsewhere on the page, fails here, naming it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const PAGE = readFileSync(new URL('../../../docs/development.md', import.meta.url), 'utf8');
const glossary = /<!-- glossary:start -->([\s\S]*?)<!-- glossary:end -->/.exec(PAGE)?.[1] ?? '';
const rest = PAGE.replace(glossary, '');

/** The terms a text defines: `**term**:` or `**term** (...)`, lower-cased. */
function defined(text: string): string[] {
  return [...text.matchAll(/\*\*([^*]+)\*\*\s*(?::|\()/g)].map((m) => m[1]!.trim().toLowerCase());
}

describe('the glossary in docs/development.md', () => {
  it('defines the words of the style guide, the planner and the bus', () => {
    const terms = defined(glossary);
    for (const word of [
      'pass',
      'read',
      'plan',
      'view',
      'bus',
      'sink',
      'delivered',
      'outbox',
      'event memory',
      'change feed',
      'calendar feed',
      'tomorrow',
      'bridge',
      'family',
      'lease',
      'claim',
      'resource',
      'copy',
      'want',
      'age',
      'signal',
    ])
      expect(terms, word).toContain(word);
  });

  it('defines each term once, and the rest of the page defines none of them again', () => {
    const terms = defined(glossary);
    expect(terms.filter((term, i) => terms.indexOf(term) !== i)).toEqual([]);
    expect(defined(rest).filter((term) => terms.includes(term))).toEqual([]);
  });
});
