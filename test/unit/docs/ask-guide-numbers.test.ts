// The guide to asking the register shows Assist's answers as a family reads them: a Polish answer writes a figure
// with a decimal comma ("średnia: 5,25"), as Assist itself says it (spokenNumber), never with the English point.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const GUIDE = join(import.meta.dirname, '..', '..', '..', 'docs', 'ask-the-register.md');

/** The lines of the guide's answers: its code blocks without a language (the JSON of a client's setup left out). */
function answerLines(): string[] {
  const blocks = readFileSync(GUIDE, 'utf8').split(/^```/m);
  // Odd pieces are inside a fence; a piece starting with a language name (json, yaml) is no answer.
  return blocks.filter((_, i) => i % 2 === 1 && /^\s*\n/.test(blocks[i]!)).flatMap((b) => b.split('\n'));
}

describe('the answers the guide shows', () => {
  it('write a Polish figure with a decimal comma', () => {
    const lines = answerLines();
    expect(lines.some((l) => /średnia: \d/.test(l))).toBe(true);
    // A figure after its Polish name: an average, a forecast, a weight, a share.
    const pointed = lines.filter((l) => /(?:średni[aey]|prognoza|waga|frekwencja)[^:\n]*: \d+\.\d/.test(l));
    expect(pointed).toEqual([]);
  });
});
