// The names each entity's declaration types for what Home Assistant holds of it, found by the compiler: every field
// of its attributes' shape (`shape<A>()`) and of its events' payload, at any depth (a list's items, a record's
// fields), by the entity's key. A template reads attributes by string; held against these, a field renamed in its
// declaration fails where a template still reads the old name (test/unit/dashboard/template-attributes.test.ts).
import { join } from 'node:path';
import ts from 'typescript';
import { tsFiles } from './import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FEATURES = join(ROOT, 'src', 'features');

/** Every property name in a type, at any depth (unions, lists, records), functions left out. */
function namesIn(checker: ts.TypeChecker, type: ts.Type, out: Set<string>, seen = new Set<ts.Type>()): Set<string> {
  if (seen.has(type)) return out;
  seen.add(type);
  if (type.isUnionOrIntersection()) for (const member of type.types) namesIn(checker, member, out, seen);
  if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return out;
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const item of checker.getTypeArguments(type as ts.TypeReference)) namesIn(checker, item, out, seen);
    return out;
  }
  for (const property of checker.getPropertiesOfType(type)) {
    out.add(property.name);
    namesIn(checker, checker.getNonNullableType(checker.getTypeOfSymbol(property)), out, seen);
  }
  return out;
}

/** The type of a property of a type, without null and undefined; undefined when it has none. */
function propertyType(checker: ts.TypeChecker, type: ts.Type, name: string): ts.Type | undefined {
  const members = type.isUnion() ? type.types : [type];
  const symbol = members.map((m) => m.getProperty(name)).find((s) => s !== undefined);
  return symbol && checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
}

/** An entity's declared names: beneath each attribute (a list's items' fields, a record's), its payload's under `''`. */
export type Declared = Map<string, Set<string>>;

/** An entity declaration's key and its names by attribute. */
function declared(checker: ts.TypeChecker, type: ts.Type): { key: string; names: Declared } | undefined {
  const key = propertyType(checker, type, 'key');
  if (key === undefined || !(key.flags & ts.TypeFlags.StringLike) || propertyType(checker, type, 'platform') === undefined) return undefined;
  const names: Declared = new Map();
  const attributes = propertyType(checker, type, 'attributes');
  const shape = attributes && propertyType(checker, attributes, '__attributes');
  for (const property of shape ? checker.getPropertiesOfType(shape) : []) {
    names.set(property.name, namesIn(checker, checker.getNonNullableType(checker.getTypeOfSymbol(property)), new Set()));
  }
  const fired = propertyType(checker, type, 'fired');
  const payload = fired && propertyType(checker, fired, 'payload');
  if (payload) names.set('', namesIn(checker, payload, new Set()));
  // A key made in a function (`average_${string}`) by its pattern.
  return { key: key.isStringLiteral() ? key.value : checker.typeToString(key), names };
}

/** By entity key, the names its declaration types for its attributes and payload, from every feature's declarations. */
export function declaredAttributes(): Map<string, Declared> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const files = tsFiles(FEATURES);
  const program = ts.createProgram({ rootNames: files, options: { ...config?.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const found = new Map<string, Declared>();
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    for (const statement of source.statements) {
      // A declaration, or a function that makes one (each subject's average_<subject>).
      const signature = ts.isFunctionDeclaration(statement) ? checker.getSignatureFromDeclaration(statement) : undefined;
      const types = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => checker.getTypeAtLocation(d.name))
        : signature
          ? [checker.getReturnTypeOfSignature(signature)]
          : [];
      for (const entity of types.flatMap((type) => declared(checker, type) ?? [])) {
        found.set(entity.key, new Map([...(found.get(entity.key) ?? []), ...entity.names]));
      }
    }
  }
  return found;
}

/** The attribute names a template reads: `state_attr(x, 'a')`, `.get('a')`, `['a']`, `.attributes.a`. */
export function namesRead(template: string): Set<string> {
  const patterns = [/state_attr\([^,()]+,\s*'(\w+)'\s*\)/g, /\.get\(\s*'(\w+)'/g, /\[\s*'(\w+)'\s*\]/g, /\.attributes\.(?!get\b)(\w+)/g];
  return new Set(patterns.flatMap((p) => [...template.matchAll(p)].map((m) => m[1]!)));
}

/** An attribute of an entity variable a template's value comes from (`state_attr(average, 'subjects')`). */
export interface Root {
  variable: string;
  attribute: string;
}

/**
 * Where each local variable of a template has its values from: the attributes `state_attr` gives it, directly or
 * through other locals (`for s in state_attr(average, 'subjects')`; `set next = s.get('to_next')`; `set ns.rows =
 * ns.rows + [s]`), followed until nothing changes.
 */
export function bindings(template: string): Map<string, Root[]> {
  const outside = outsideMacros(template);
  const assigned = [
    ...[...outside.matchAll(/\{%-?\s*for\s+([\w.]+)\s+in\s+(.+?)-?%\}/g)],
    ...[...outside.matchAll(/\{%-?\s*set\s+([\w.]+)\s*=\s*(.+?)-?%\}/g)],
  ].map((m) => ({ local: m[1]!, from: m[2]! }));
  const bound = new Map<string, Root[]>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const { local, from } of assigned) {
      const direct = [...from.matchAll(/state_attr\(\s*(\w+)\s*,\s*'(\w+)'\s*\)/g)].map((m) => ({ variable: m[1]!, attribute: m[2]! }));
      const through = [...from.matchAll(/[A-Za-z_][\w.]*/g)].flatMap((m) => (m[0] === local ? [] : (bound.get(m[0]) ?? [])));
      const known = bound.get(local) ?? [];
      const more = [...direct, ...through].filter((r) => !known.some((k) => k.variable === r.variable && k.attribute === r.attribute));
      if (more.length === 0) continue;
      bound.set(local, [...known, ...more.filter((r, i) => more.findIndex((o) => o.variable === r.variable && o.attribute === r.attribute) === i)]);
      changed = true;
    }
  }
  return bound;
}

/** The template with its macros' bodies left out: a macro's parameters are bound at each call, not here. */
const outsideMacros = (template: string): string => template.replace(/\{%-?\s*macro\b[\s\S]*?\{%-?\s*endmacro\s*-?%\}/g, '');

/** Each `.get('a')` a template asks of a local outside its macros (`s.get('forecast')`), by the local; other reads by `''`. */
export function readsByLocal(template: string): { local: string; name: string }[] {
  const local = [...outsideMacros(template).matchAll(/(?<![\w.)\]])([A-Za-z_][\w.]*?)\.get\(\s*'(\w+)'/g)].map((m) => ({
    local: m[1]!,
    name: m[2]!,
  }));
  const named = new Set(local.map((r) => r.name));
  return [...local, ...[...namesRead(template)].filter((name) => !named.has(name)).map((name) => ({ local: '', name }))];
}
