#!/usr/bin/env node
// Counts the code lines of TypeScript files: a line that holds something besides blanks and comments.
// `node scripts/code-lines.mjs [--at REV] FILE...` prints each file's count and the total; with --at the
// files are read as the commit REV holds them (a file that commit lacks counts 0), so one command gives
// the figure before a change and another the figure after it. A file name may be a git pathspec such as
// 'src/outputs/homeassistant/*.ts'.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** How many lines of `text` hold a token of code: a line of only blanks or comments counts none. */
function codeLines(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = new Set();
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length > 0) return children.forEach(visit);
    if (node.kind === ts.SyntaxKind.EndOfFileToken || node.getWidth(source) === 0) return;
    for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd() - 1); line++) lines.add(line);
  };
  visit(source);
  return lines.size;
}

const args = process.argv.slice(2);
const at = args[0] === '--at' ? args[1] : undefined;
const patterns = at === undefined ? args : args.slice(2);
if (patterns.length === 0) {
  console.error('usage: node scripts/code-lines.mjs [--at REV] FILE...');
  process.exit(2);
}

const git = (...gitArgs) => execFileSync('git', gitArgs, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
/** The files a pattern names: itself, or what the tree (or the commit) holds that matches it. */
function filesOf(pattern) {
  if (!/[*?[]/.test(pattern)) return [pattern];
  const listed = at === undefined ? git('ls-files', '--', pattern) : git('ls-tree', '-r', '--name-only', at, '--', pattern);
  return listed.split('\n').filter((file) => file !== '');
}
const files = [...new Set(patterns.flatMap(filesOf))];
let total = 0;
for (const file of files) {
  let text = '';
  try {
    text = at === undefined ? readFileSync(file, 'utf8') : git('show', `${at}:${file}`);
  } catch {
    // A file the tree (or the commit) lacks has no lines.
  }
  const count = text === '' ? 0 : codeLines(file, text);
  total += count;
  console.log(`${String(count).padStart(6)}  ${file}`);
}
console.log(`${String(total).padStart(6)}  total (${files.length} files${at === undefined ? '' : ` at ${at}`})`);
