// The folders of src/ as a graph: one edge from a folder to each other folder one of its files imports
// (value or type, static, re-exported or dynamic: TypeScript's own pre-processor lists them all), and the
// cycles in it. test/unit/layout/import-cycles.test.ts keeps that graph free of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import ts from 'typescript';

/** The files at the top of src/ (main.ts, cli.ts): the composition root, one node of its own. */
export const ROOT = '(root)';

/** One import that crosses folders, e.g. features/agenda/agenda.ts -> feature-kit/source.ts. */
export interface FolderEdge {
  from: string;
  to: string;
  /** The first file import seen for this edge, as `file -> file` relative to src/. */
  example: string;
}

function folderOf(srcDir: string, file: string): string {
  const parts = relative(srcDir, file).split(sep);
  return parts.length > 1 ? parts[0]! : ROOT;
}

/** Every .ts file under `dir`, as a path joined to it. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The folder edges of src/, leaving out the folders in `aside` (as importers and as imported). */
export function folderEdges(srcDir: string, aside: readonly string[] = []): FolderEdge[] {
  return edgesBy(srcDir, aside, (file) => folderOf(srcDir, file));
}

/**
 * The file edges of src/ (each node a file, relative to src/, e.g. `feature-kit/cache.ts`), leaving out the files
 * of the folders in `aside`: a circle between two files of one folder is as much a circle as one between folders.
 */
export function fileEdges(srcDir: string, aside: readonly string[] = []): FolderEdge[] {
  const named = (file: string): string => relative(srcDir, file).split(sep).join('/');
  return edgesBy(srcDir, aside, named, (text, at) => `${named(at.file)}: ${statementAt(text, at.pos)}`);
}

/** The import or export statement of the module name at `pos`, on one line: what the step needs of its target. */
function statementAt(text: string, pos: number): string {
  const start = Math.max(text.lastIndexOf('import', pos), text.lastIndexOf('export', pos));
  const close = text.indexOf(text[pos]!, pos + 1); // `pos` is the module name's opening quote
  return text.slice(start, close + 1).replace(/\s+/g, ' ');
}

interface Site {
  file: string;
  target: string;
  pos: number;
}

function edgesBy(
  srcDir: string,
  aside: readonly string[],
  nodeOf: (file: string) => string,
  example = (_text: string, at: Site): string => `${relative(srcDir, at.file)} -> ${relative(srcDir, at.target)}`,
): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of tsFiles(srcDir)) {
    if (aside.includes(folderOf(srcDir, file))) continue;
    const from = nodeOf(file);
    const text = readFileSync(file, 'utf8');
    for (const { fileName, pos } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue; // a package, not a folder of src/
      const target = resolve(dirname(file), fileName.replace(/\.js$/, '.ts'));
      if (aside.includes(folderOf(srcDir, target))) continue;
      const to = nodeOf(target);
      if (to === from || edges.has(`${from}\0${to}`)) continue;
      edges.set(`${from}\0${to}`, { from, to, example: example(text, { file, target, pos }) });
    }
  }
  return [...edges.values()];
}

/**
 * Every cycle of folders, each as one closed path with the import that makes each step, e.g.
 * `features -> runner -> features (features/agenda/agenda.ts -> runner/account.ts; runner/account.ts -> features/index.ts)`.
 * One path per strongly connected group (Tarjan's algorithm), so a tangle of ten folders is one line.
 */
export function folderCycles(edges: readonly FolderEdge[]): string[] {
  const next = new Map<string, FolderEdge[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();

  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const { to } of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);

  return groups.map((group) => describe(closedPath(group, next), next, group));
}

/** A path from the group's first folder back to itself, staying inside the group (breadth first: the shortest). */
function closedPath(group: string[], next: Map<string, FolderEdge[]>): string[] {
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const { to } of next.get(node) ?? []) {
      if (!group.includes(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  throw new Error(`no cycle through ${start}`); // unreachable: the group is strongly connected
}

function describe(path: string[], next: Map<string, FolderEdge[]>, group: string[]): string {
  const steps = path.slice(1).map((to, i) => next.get(path[i]!)!.find((edge) => edge.to === to)!.example);
  const others = group.filter((node) => !path.includes(node));
  return `${path.join(' -> ')} (${steps.join('; ')})${others.length > 0 ? ` [the same tangle holds ${others.join(', ')}]` : ''}`;
}

/** Every file `files` import, directly or through others (value or type imports, relative ones: packages aside), themselves included. */
export function reachedFrom(files: readonly string[]): string[] {
  const reached = new Set<string>();
  const next = [...files];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles)
      if (fileName.startsWith('.')) next.push(resolve(dirname(file), fileName.replace(/\.js$/, '.ts')));
  }
  return [...reached].sort();
}
