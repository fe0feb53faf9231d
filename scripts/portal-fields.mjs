// docs/portal-fields.md: every field the portal spec names for an endpoint the bridge reads, and every field the
// bridge's schema of it declares, each read (by the features whose folders use the endpoint's declaration) or
// ignored with the reason (REASONS below). Generated from the spec (PORTAL_SPEC, or shared/spec/portal-interface.md
// beside the checkout), the schemas (src/portal/schemas/) and the resources' declarations (src/engine/resources/,
// src/features/<name>/resources.ts), read as text: no build needed. test/unit/docs/portal-fields.test.ts holds the
// page to it and fails on a field the spec names that is neither read nor ignored.
// Usage: node scripts/portal-fields.mjs [--check]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const PAGE = 'docs/portal-fields.md';

/** Where the spec is looked for: PORTAL_SPEC, then the shared folder beside the checkout or the worktrees. */
export function specPath() {
  const candidates = [
    process.env.PORTAL_SPEC,
    join(ROOT, '..', 'shared', 'spec', 'portal-interface.md'),
    join(ROOT, '..', '..', 'shared', 'spec', 'portal-interface.md'),
  ];
  return candidates.find((path) => path !== undefined && existsSync(path));
}

/**
 * Why the bridge leaves a field the spec names unread: by `Endpoint Field`, or by `Field` for every endpoint. A field
 * the spec names that is neither read nor here fails the test.
 */
export const REASONS = {
  Url: 'a link to the record itself; the bridge joins records by their ids',
  Resources: 'the index of other modules; the bridge names the endpoints it reads itself',
  Semester: 'the semester of a record is told by its date against the school year (Classes)',
  Student: 'every record of the account is the child’s own',
  'Grades IsConstituent': 'an ordinary grade is one of no term flag',
  'Classes ClassTutor': 'read as ClassTutor.Id where the tutor is named (school)',
  'Users/<id> AccountId': 'the LID form of an id the bridge holds as a number',
  'Users/<id> AccountNumericIdentifier': 'the login account, not the child',
  'Users/<id> GroupId': 'no door tells a user’s group',
  'Users/<id> UUID': 'the class is known by its Id',
  'Users/<id> IsEmployee': 'teachers are named from the lessons they teach, whoever they are',
  'Attendances AddDate': 'a mark is told by the date of its lesson',
  'Realizations IsTrip': 'a trip is told from the agenda and SchoolTrips',
  'Realizations CountInStatistics': 'the bridge counts no statistics of lessons held',
  'Realizations CountInRPN': 'the bridge counts no statistics of lessons held',
  'Realizations AddedBy': 'the teacher of a lesson held is the lesson’s (Lessons)',
  'Timetables DayNo': 'the day is the key the lesson is listed under',
  'Timetables VirtualClass': 'empty on tested accounts (VirtualClasses)',
  'Timetables VirtualClassName': 'empty on tested accounts (VirtualClasses)',
  'Timetables SubstitutionClassUrl': 'the change is told from the lesson’s own Org* fields',
  'Calendars/Substitutions IsShifted': 'never true so far (spec 2.7); a moved lesson is read from Timetables New*',
  'HomeWorkAssignments MustSendAttachFile': 'the bridge sends no homework',
  'HomeWorkAssignments SendFilePossible': 'the bridge sends no homework',
  'HomeWorkAssignments AddedFiles': 'the bridge sends no homework',
  'HomeWorkAssignments StudentsWhoRead': 'whether the child read it is not told',
  'SchoolTrips locomotion': 'the route and destination say the trip',
  'SchoolFiles iconUrl': 'a picture of the file’s kind; the name says it',
  'SchoolFiles fileStatus': 'every listed file is offered',
  'SchoolNotices WasRead': 'read in the portal is not read by the family: the bridge keeps its own',
  'SchoolNotices CreationDate': 'a notice is told by its StartDate',
  'EbiblioLendings type': 'every lending is a book',
  'EbiblioLendings identifier': 'a lending is told by its title',
  'PointGrades Semester': 'the semester of a record is told by its date against the school year (Classes)',
  'BaseTextGrades ShowInGradesView': 'every text grade is told',
  'BaseTextGrades Lesson': 'the subject names it',
  'LuckyNumbers LuckyNumber': 'the object holding the number and its day (its two fields are read)',
  'Auth/Subjects schemaNumber': 'the subject is known by its numeric id and name',
  'Auth/TokenInfo SchoolId': 'the school is read from Schools',
  'Auth/TokenInfo SchoolNodeName': 'the school is read from Schools',
  'Auth/TokenInfo UserType': 'a parent’s login is the only kind the bridge reads with',
  'DescriptiveGrades/Skills Color': 'no door shows the school’s colours',
  'TextGrades/Categories Color': 'no door shows the school’s colours',
  'TextGrades/Categories BlockAnyGrades': 'how the teacher’s page behaves, not what the grade is',
  'TextGrades/Categories IsReadOnly': 'how the teacher’s page behaves, not what the grade is',
  'TextGrades/Categories ObligationToPerform': 'how the teacher’s page behaves, not what the grade is',
  'PointGrades/Categories ValueFrom': 'a percentage is of the maximum (ValueTo) alone (spec 2.4)',
  'Auth/UserInfo/<lid> UserIdentifier': 'the login’s own user; the child is IdentifierOfStudentAssignedWithUser',
  'Auth/UserInfo/<lid> UserNumericIdentifier': 'the login’s own user; the child is IdentifierOfStudentAssignedWithUser',
  'Auth/UserInfo/<lid> AccountNumericIdentifier': 'the login account, not the child',
  'Auth/UserInfo/<lid> UserType': 'a parent’s login is the only kind the bridge reads with',
  'Auth/UserInfo/<lid> UserState': 'a login that reads is active; a refused one is told by the login',
  'Auth/UserInfo/<lid> SchoolId': 'the school is read from Schools',
  'Auth/UserInfo/<lid> UserSchoolClassId': 'the class is read from Users/<id> and Classes',
  'Auth/UserInfo/<lid> IdentifierOfClassOfStudentAssignedWithUser': 'the class is read from Users/<id> and Classes',
  'Auth/UserInfo/<lid> KindergartenGraduationYear': 'no door tells the year a kindergarten child leaves',
  'Justifications messageFromParent': 'the parent’s own words, not news to the parent',
};

/**
 * Fields a schema reads in code or inside another field rather than as a key of its own (a transform's function, a
 * reference read with its inline name): where the spec's field is read.
 */
export const READ_INSIDE = {
  'Me Id': 'Me.Account',
  'Me UserId': 'Me.Account',
  'TimetableEntries Symbol': 'Classroom, read with its inline names (namedRef)',
  'TimetableEntries Name': 'Classroom, read with its inline names (namedRef)',
  'Units GradesSettings': 'unitSettings (src/portal/schemas/identity.ts)',
  'Units LessonsRange': 'unitSettings (src/portal/schemas/identity.ts)',
  'Auth/Subjects numericIdentifier': 'the subjects transform (src/portal/schemas/lookups.ts)',
};

/** The spec's resource rows (part 2): each resource name with the text of its fields. */
function specRows(spec) {
  const part = spec.slice(spec.indexOf('### 2.2'), spec.indexOf('### 2.10'));
  const rows = [];
  for (const line of part.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[1] === 'Resource' || cells[1].startsWith('---')) continue;
    // `Users/{Me.Account.UserId}` is the endpoint the bridge declares as `Users/<id>`.
    for (const name of cells[1].split(/,\s*/)) rows.push({ name: name.replace(/\s*\(.*$/, '').replace(/\{[^}]*\}/g, '<id>'), text: cells[3] });
  }
  // The timetable's lessons are told in prose (spec 2.7).
  const lessons = part.slice(part.indexOf('Lesson fields:'), part.indexOf('| Resource', part.indexOf('Lesson fields:')));
  rows.push({ name: 'Timetables', text: lessons });
  // What the design names beyond the spec (interface 19.1: an agenda entry with TimeTo ends then).
  rows.push({ name: 'HomeWorks', text: 'TimeTo' });
  return rows;
}

/** The field names a spec cell lists: each comma-separated item's name, parenthesised notes and prose left out. */
export function namedFields(text) {
  let flat = text;
  for (let before = ''; before !== flat; ) [before, flat] = [flat, flat.replace(/\([^()]*\)|\{[^{}]*\}/g, '')];
  return [
    ...new Set(
      flat
        .split(/(?<=[a-z0-9)])\.\s+(?=[A-Z])|;\s*/)
        .flatMap((sentence) => sentence.replace(/^[^:]*\s[^:]*:\s*/, '').split(/,\s*|\s+and\s+|\s+or\s+/))
        .map((item) => item.trim().split(/\s+/))
        .flatMap((words) => (words.length === 1 ? words : [words[0], words.at(-1)]))
        .filter(
          (word) =>
            /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/.test(word) && (/[A-Z].*[a-z]|^[a-z]+[A-Z]|\./.test(word) || LOWER_FIELDS.has(word)),
        )
        .filter((word) => word.length > 1 && (/[a-z][A-Z]|\./.test(word) || !/^[A-Z][a-z]+$/.test(word) || FIELD_WORDS.has(word)))
        .map((word) => word.split('.')[0]),
    ),
  ];
}

/** The lower-case field names the spec's tables use (Schools: "town, street"); any other lower-case word is prose. */
const LOWER_FIELDS = new Set(['town', 'street']);

/** Plain one-word field names the spec uses (a capitalised word of prose is no field). */
const FIELD_WORDS = new Set(
  'Id Name Short Symbol Number Grade Date Time Topic Content Text Weight Semester Comments Category Subject Teacher Lesson Student Classroom Class Type Value Map Skill Improvement Positive Status Url'.split(
    ' ',
  ),
);

const sourceFiles = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));

/** Each constant of src/portal/schemas/ with the text of its statement (comments left out). */
function schemaStatements() {
  const statements = new Map();
  for (const file of sourceFiles('src/portal/schemas')) {
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const match of text.matchAll(/^(?:export )?const (\w+)\b[^=]*=([\s\S]*?)(?=^(?:export |const |function |type |interface )|(?![\s\S]))/gm))
      statements.set(match[1], match[2]);
  }
  return statements;
}

/** A field whose value is a record written in place (`Class: z.looseObject({ ... })`). */
const INLINE_RECORD = /^\s*z\s*\.\s*(?:looseObject|object|strictObject)\(\s*\{/;

/**
 * The keys of the first object literal of a statement (`{ A: ..., ...spread }`), at its own depth, and those of each
 * record written in place as a field's value (the identity's `{ Class: z.looseObject({ Number: ... }) }`).
 */
function literalKeys(statement) {
  const open = statement.indexOf('{');
  if (open < 0) return { keys: [], spreads: [] };
  const keys = [];
  const spreads = [];
  const values = [];
  let depth = 0;
  let item = '';
  for (const ch of statement.slice(open)) {
    if ('{[('.includes(ch)) depth++;
    if ('}])'.includes(ch)) depth--;
    if (depth === 0) break;
    if (depth === 1 && (ch === ',' || ch === '{')) {
      const head = /^\s*(?:'?([A-Za-z]\w*)'?\s*:|\.\.\.(\w+))/.exec(item);
      if (head?.[1]) keys.push(head[1]);
      if (head?.[2]) spreads.push(head[2]);
      if (head?.[1] && INLINE_RECORD.test(item.slice(head[0].length))) values.push(item.slice(head[0].length));
      item = '';
    } else if (depth >= 1) item += ch;
  }
  const head = /^\s*(?:'?([A-Za-z]\w*)'?\s*:|\.\.\.(\w+))/.exec(item);
  if (head?.[1]) keys.push(head[1]);
  if (head?.[2]) spreads.push(head[2]);
  for (const value of values) {
    const inner = literalKeys(value);
    keys.push(...inner.keys);
    spreads.push(...inner.spreads);
  }
  return { keys, spreads };
}

/**
 * An endpoint's fields as its schema declares them: the keys of its answer, and of every object of the schemas its
 * statement names (the records its list holds), spreads included.
 */
function schemaFields(statements, name, seen = new Set()) {
  const statement = statements.get(name);
  if (statement === undefined || seen.has(name)) return [];
  seen.add(name);
  const { keys, spreads } = literalKeys(statement);
  const named = [...statement.matchAll(/\b(\w+)\b/g)].map((m) => m[1]).filter((n) => n !== name && statements.has(n) && !SCALARS.has(n));
  return [...new Set([...keys, ...[...spreads, ...named].flatMap((n) => schemaFields(statements, n, seen))])];
}

/** The schemas' field readers (fields.ts, common.ts): a value, not a record. */
const SCALARS = new Set(['text', 'num', 'bool', 'refId', 'namedRef', 'idList', 'numericId', 'lenient', 'objectList', 'lenientList', 'fitting']);

/** The endpoints the bridge reads, each with its schema and the constant it is declared as. */
function declarations() {
  const files = [...sourceFiles('src/engine/resources'), ...sourceFiles('src/features').filter((f) => /resources\.ts$/.test(f))];
  const out = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/'([A-Z][A-Za-z/<>]*)'[^;]{0,300}?\b(\w+Response)\b/g)) {
      const before = text.slice(0, match.index);
      const constant = [...before.matchAll(/export const (\w+) =/g)].at(-1)?.[1];
      if (!out.has(match[1])) out.set(match[1], { schema: match[2], constant, file: relative(ROOT, file) });
    }
    for (const [endpoint, schema] of namedRequests(text))
      if (!out.has(endpoint)) out.set(endpoint, { schema, constant: undefined, file: relative(ROOT, file) });
  }
  return out;
}

/**
 * Requests made with an endpoint held in a constant unpacked from a list of endpoints (the identity's
 * `const [ME, USER, ...] = IDENTITY_ENDPOINTS`, then `gateway.get(USER.replace(...), userResponse)`): each endpoint
 * with its schema.
 */
function namedRequests(text) {
  const out = [];
  for (const unpacked of text.matchAll(/const \[([\w\s,]+)\] = (\w+);/g)) {
    const list = new RegExp(`const ${unpacked[2]} = \\[([^\\]]*)\\]`).exec(text);
    if (list === null) continue;
    const endpoints = [...list[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const names = unpacked[1].split(',').map((n) => n.trim());
    for (const request of text.matchAll(/\.get\((\w+)(?:\.replace\((?:[^()]|\([^()]*\))*\))?,\s*(\w+Response)\)/g)) {
      const endpoint = endpoints[names.indexOf(request[1])];
      if (endpoint !== undefined) out.push([endpoint, request[2]]);
    }
  }
  return out;
}

/** The features whose folder uses a declaration (by its constant's name). */
function readers(constant) {
  if (constant === undefined) return [];
  const folders = readdirSync(join(ROOT, 'src/features'), { withFileTypes: true }).filter((e) => e.isDirectory());
  return folders
    .filter((folder) =>
      sourceFiles(join('src/features', folder.name)).some((file) => new RegExp(`\\b${constant}\\b`).test(readFileSync(file, 'utf8'))),
    )
    .map((folder) => folder.name);
}

/** The fields the spec names, by resource. */
export function namedInSpec(spec) {
  const named = new Map();
  for (const row of specRows(spec)) named.set(row.name, [...new Set([...(named.get(row.name) ?? []), ...namedFields(row.text)])]);
  return named;
}

/** The fields the committed page says the spec names (where the spec itself is not at hand), by resource. */
export function namedInPage(page) {
  const named = new Map();
  // By the endpoint as the page names it: portalFields looks an endpoint up by its own name first.
  for (const [, endpoint, field] of page.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| yes \|/gm))
    named.set(endpoint, [...(named.get(endpoint) ?? []), field]);
  return named;
}

/** The table's rows, and the fields the spec names (`named`: namedInSpec) that are neither read nor ignored with a reason. */
export function portalFields(named) {
  const statements = schemaStatements();
  const declared = declarations();
  const rows = [];
  const problems = [];
  for (const [endpoint, d] of [...declared].sort(([a], [b]) => a.localeCompare(b))) {
    const read = schemaFields(statements, d.schema);
    const inSpec = named.get(endpoint) ?? named.get(endpoint.replace(/\/<\w+>$/, '')) ?? [];
    const by = readers(d.constant);
    const readBy = by.length > 0 ? `read by ${by.join(', ')}` : 'read by the engine';
    for (const field of [...new Set([...read, ...inSpec])].sort()) {
      const reason = REASONS[`${endpoint} ${field}`] ?? REASONS[field];
      const inside = READ_INSIDE[`${endpoint} ${field}`];
      const status = read.includes(field)
        ? readBy
        : inside !== undefined
          ? `${readBy} (in ${inside})`
          : reason === undefined
            ? undefined
            : `ignored: ${reason}`;
      if (status === undefined) problems.push(`${endpoint} ${field}: the spec names it; neither read nor ignored with a reason`);
      rows.push(`| \`${endpoint}\` | \`${field}\` | ${inSpec.includes(field) ? 'yes' : 'no'} | ${status ?? '**neither**'} |`);
    }
  }
  return { rows, problems };
}

/** The page as the generator writes it. */
export function portalFieldsPage(named) {
  const { rows } = portalFields(named);
  return [
    '# The portal fields the bridge reads',
    '',
    'Every field the portal spec names for an endpoint the bridge reads, and every field the bridge’s schema of it',
    'declares: read (by the features that use the endpoint) or ignored, with the reason. Generated by',
    '`node scripts/portal-fields.mjs` from the spec, `src/portal/schemas/` and the resources’ declarations; a test fails',
    'when the spec names a field that is neither, and when this page is stale. Edit the schemas or the reasons in the',
    'script, not this page.',
    '',
    '| endpoint | field | the spec names it | the bridge |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = specPath();
  if (path === undefined) throw new Error('portal-fields: no spec found (set PORTAL_SPEC)');
  const named = namedInSpec(readFileSync(path, 'utf8'));
  const { problems } = portalFields(named);
  for (const problem of problems) console.error(problem);
  const page = portalFieldsPage(named);
  if (process.argv.includes('--check')) {
    const stale = readFileSync(join(ROOT, PAGE), 'utf8') !== page;
    if (stale) console.error(`${PAGE} is stale: run node scripts/portal-fields.mjs`);
    process.exit(stale || problems.length > 0 ? 1 : 0);
  }
  writeFileSync(join(ROOT, PAGE), page);
  process.exit(problems.length > 0 ? 1 : 0);
}
