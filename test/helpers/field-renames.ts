// Which fields a part of a feature reads (its board, dashboard and Assist's `ask` part), found by the compiler, and
// whether renaming each where it is declared fails the typecheck where the part reads it; beside, which of them are
// declared optional and where the parts narrow with `in` (found in the same walk, from the same program). A read the typecheck does
// not hold (an `in` narrowing, a structural parameter whose field is optional) survives the rename silently: the part
// then stops telling what it read, and every test of it may stay green. test/unit/layout/field-renames.test.ts runs it.
//
// One program is built; each rename is a second program that reuses every source file but the renamed ones, checked
// only in the files that read the fields. The fields are renamed together, in rounds: a read that fails with "Property
// '<name>' does not exist" at its own node proves its own field (only that field's rename says so there).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

/** Where a field is read: the file and the span of its name at the read. */
export interface Read {
  file: string;
  start: number;
  end: number;
}

/** Where a field is declared: the span of its name (an interface's, a type literal's, an object literal's a type is inferred from). */
export interface Declared {
  file: string;
  start: number;
  end: number;
  shorthand: boolean;
  /** Declared with `?`: a producer may leave it out, and the part reads a missing field as nothing in silence. */
  optional: boolean;
}

/**
 * A field as a part reads it: every declaration the compiler binds the read to (a union's members each declare it:
 * a rename renames them all), and its reads.
 */
export interface Field {
  name: string;
  declarations: Declared[];
  reads: Read[];
}

const DECLARATIONS = new Set([
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ShorthandPropertyAssignment,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.GetAccessor,
]);

/** "Property 'x' does not exist on type …" (and its "Did you mean" form). */
const NO_SUCH_PROPERTY = new Set([2339, 2551]);

export class FieldRenames {
  readonly program: ts.Program;
  /** Each `'x' in y` in the parts' code the last fieldsReadIn went through: a narrowing the typecheck does not hold. */
  readonly narrowings: Read[] = [];
  private readonly host: ts.CompilerHost;
  private readonly texts = new Map<string, string>();

  /** `roots`: the program's files; `own(file)`: whether a field declared there is the product's to rename. */
  constructor(
    roots: readonly string[],
    private readonly options: ts.CompilerOptions,
    private readonly own: (file: string) => boolean,
    files?: ReadonlyMap<string, string>,
  ) {
    this.host = ts.createCompilerHost(options, true);
    const read = this.host.readFile.bind(this.host);
    if (files) for (const [name, text] of files) this.texts.set(name, text);
    this.host.readFile = (name) => this.texts.get(name) ?? read(name);
    const [fileExists, directoryExists] = [this.host.fileExists.bind(this.host), this.host.directoryExists?.bind(this.host)];
    this.host.fileExists = (name) => this.texts.has(name) || fileExists(name);
    this.host.directoryExists = (name) => [...this.texts.keys()].some((file) => file.startsWith(`${name}/`)) || (directoryExists?.(name) ?? false);
    const getSourceFile = this.host.getSourceFile.bind(this.host);
    this.host.getSourceFile = (name, language, onError) => {
      const text = this.texts.get(name);
      return text === undefined ? getSourceFile(name, language, onError) : ts.createSourceFile(name, text, language, true);
    };
    this.program = ts.createProgram({ rootNames: [...roots], options, host: this.host });
  }

  /**
   * Every field of the product that a part reads, with each read: the code of each part declared in `parts` (a value
   * typed as a part, a function taking or making a board part's argument) and of the functions of its file it uses.
   */
  fieldsReadIn(parts: readonly string[], isPart: (typeText: string) => boolean): Field[] {
    const checker = this.program.getTypeChecker();
    const fields = new Map<string, Field>();
    this.narrowings.length = 0;
    const note = (symbol: ts.Symbol | undefined, name: ts.Identifier, source: ts.SourceFile): void => {
      const declarations = (symbol?.declarations ?? []).flatMap((declaration): Declared[] => {
        const declared = (declaration as ts.NamedDeclaration).name;
        const file = declaration.getSourceFile();
        if (!DECLARATIONS.has(declaration.kind) || declared === undefined || !ts.isIdentifier(declared) || !this.own(file.fileName)) return [];
        return [
          {
            file: file.fileName,
            start: declared.getStart(file),
            end: declared.getEnd(),
            shorthand: ts.isShorthandPropertyAssignment(declaration),
            optional:
              (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration) || ts.isMethodSignature(declaration)) &&
              declaration.questionToken !== undefined,
          },
        ];
      });
      if (declarations.length === 0) return;
      const key = declarations
        .map((d) => `${d.file}:${d.start}`)
        .sort()
        .join(' ');
      const field = fields.get(key) ?? { name: name.text, declarations, reads: [] };
      field.reads.push({ file: source.fileName, start: name.getStart(source), end: name.getEnd() });
      fields.set(key, field);
    };
    for (const part of parts) {
      const source = this.program.getSourceFile(part);
      if (source === undefined) throw new Error(`${part}: not in the program`);
      const todo = source.statements.filter((statement) => partDeclared(statement, source, isPart));
      const seen = new Set<ts.Node>(todo);
      const visit = (node: ts.Node): void => {
        if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword) {
          this.narrowings.push({ file: source.fileName, start: node.getStart(source), end: node.getEnd() });
        }
        if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name) && !isWritten(node)) {
          note(checker.getSymbolAtLocation(node.name), node.name, source);
        } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
          const name = node.propertyName ?? node.name;
          if (ts.isIdentifier(name)) note(checker.getTypeAtLocation(node.parent).getProperty(name.text), name, source);
        } else if (ts.isIdentifier(node)) {
          // A function or value of the file the part uses: its code is the part's too.
          const symbol = ts.isShorthandPropertyAssignment(node.parent)
            ? checker.getShorthandAssignmentValueSymbol(node.parent)
            : checker.getSymbolAtLocation(node);
          const statement = symbol?.declarations?.map(topStatement).find((s) => s !== undefined && s.getSourceFile() === source);
          if (statement !== undefined && !seen.has(statement)) {
            seen.add(statement);
            todo.push(statement);
          }
        }
        ts.forEachChild(node, visit);
      };
      for (let i = 0; i < todo.length; i++) visit(todo[i] as ts.Node);
    }
    return [...fields.values()];
  }

  /**
   * The fields whose rename leaves a read of theirs compiling. Renamed together, in rounds: a read under another
   * renamed field's error (`clock.today` with `clock` renamed) proves nothing, so each round renames only the fields
   * not proven yet, until a round proves none; each left is renamed alone before it is called silent.
   */
  silent(fields: readonly Field[]): Field[] {
    let left = [...fields];
    for (;;) {
      const proven = this.provenBy(left);
      if (proven.size === 0) break;
      left = left.filter((field) => !proven.has(field));
    }
    return left.filter((field) => !this.provenBy([field]).has(field));
  }

  /** The fields each of whose reads the typecheck names once `fields` are renamed together (see proves). */
  private provenBy(fields: readonly Field[]): Set<Field> {
    const byFile = new Map<string, Declared[]>();
    for (const declared of new Map(fields.flatMap((f) => f.declarations).map((d) => [`${d.file}:${d.start}`, d])).values())
      byFile.set(declared.file, [...(byFile.get(declared.file) ?? []), declared]);
    const texts = new Map<string, string>();
    for (const [file, declared] of byFile) {
      let text = this.program.getSourceFile(file)?.text ?? readFileSync(file, 'utf8');
      for (const d of [...declared].sort((a, b) => b.start - a.start)) {
        const name = text.slice(d.start, d.end);
        text = text.slice(0, d.start) + (d.shorthand ? `${name}Renamed: ${name}` : `${name}Renamed`) + text.slice(d.end);
      }
      texts.set(file, text);
    }
    const program = this.renamed(texts);
    const failures = new Map<string, readonly ts.Diagnostic[]>();
    for (const file of new Set(fields.flatMap((field) => field.reads.map((read) => read.file)))) {
      const source = program.getSourceFile(file);
      failures.set(file, source === undefined ? [] : program.getSemanticDiagnostics(source));
    }
    // A read in a renamed file moved with the renames before it.
    const shift = (read: Read): number =>
      (byFile.get(read.file) ?? [])
        .filter((d) => d.end <= read.start)
        .reduce((sum, d) => sum + (d.shorthand ? 'Renamed: '.length + d.end - d.start : 'Renamed'.length), 0);
    return new Set(
      fields.filter((field) => field.reads.every((read) => proves(failures.get(read.file) ?? [], read.start + shift(read), field.name))),
    );
  }

  /** A program with these files' texts in place of their own, every other source file reused. */
  private renamed(texts: ReadonlyMap<string, string>): ts.Program {
    const host: ts.CompilerHost = {
      ...this.host,
      getSourceFile: (name, language, onError) => {
        const text = texts.get(name);
        return text === undefined
          ? (this.program.getSourceFile(name) ?? this.host.getSourceFile(name, language, onError))
          : ts.createSourceFile(name, text, language, true);
      },
      readFile: (name) => texts.get(name) ?? this.host.readFile(name),
    };
    return ts.createProgram({ rootNames: this.program.getRootFileNames(), options: this.options, host, oldProgram: this.program });
  }
}

/**
 * Whether the typecheck names a read of a renamed field in the file that reads it: "Property '<name>' does not exist"
 * at the read, or another error of that file that names it (the type the read is made of: `Pick<Identity,
 * "schoolName">`, a call whose argument lacks it). Another read's "does not exist" proves nothing of this one.
 */
function proves(diagnostics: readonly ts.Diagnostic[], at: number, name: string): boolean {
  return diagnostics.some((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const names = text.includes(`'${name}'`) || text.includes(`"${name}"`);
    return names && (NO_SUCH_PROPERTY.has(d.code) ? d.start === at : true);
  });
}

/** A statement that declares a part: a value typed as one, or a function whose parameters or result name one. */
function partDeclared(statement: ts.Statement, source: ts.SourceFile, isPart: (typeText: string) => boolean): boolean {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.some((d) => d.type !== undefined && isPart(d.type.getText(source)));
  if (ts.isFunctionDeclaration(statement))
    return [...statement.parameters.map((p) => p.type), statement.type].some((t) => t !== undefined && isPart(t.getText(source)));
  return false;
}

/** The statement at the top of its file that holds a declaration (a function, a `const`), if it is one. */
function topStatement(declaration: ts.Declaration): ts.Statement | undefined {
  if (ts.isFunctionDeclaration(declaration) && ts.isSourceFile(declaration.parent)) return declaration;
  if (ts.isVariableDeclaration(declaration) && ts.isVariableStatement(declaration.parent.parent) && ts.isSourceFile(declaration.parent.parent.parent))
    return declaration.parent.parent;
  return undefined;
}

/** The target of an assignment (`a.b = …`, `a.b += …`): a write, not a read. */
function isWritten(node: ts.PropertyAccessExpression): boolean {
  const parent = node.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

/** Where a field or a read is, for a person: `features/grades/ask.ts:68 forecast`. */
export function whereOf(root: string, file: string, start: number, name: string, program: ts.Program): string {
  const source = program.getSourceFile(file);
  const line = source === undefined ? 0 : source.getLineAndCharacterOfPosition(start).line + 1;
  return `${relative(root, file)}:${line} ${name}`;
}
