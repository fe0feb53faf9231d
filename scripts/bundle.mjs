// The bin as one bundle: `npm run build` runs this after tsc and replaces dist/main.js with src/main.ts
// and everything it loads, tree-shaken and minified but for its names (the code `check`, `demo` and `dashboard` load
// on demand in chunks of their own next to it, dist/main.*.js). The other entry points (the bench,
// the simulator, scripts/*.mjs) keep importing tsc's dist/ files.
// Then the board's browser code (src/outputs/web/browser/) as one script for the browser, dist/browser/board.js,
// and the .css files it imports as one style sheet beside it, dist/browser/board.css, which the web
// server reads at start (src/outputs/web/board-bundle.ts, whose options it uses). Last, the dashboard's .jinja
// templates (beside their features, the shared macros in src/outputs/homeassistant/templates/) into dist/ at the same paths, where
// the generator reads them.
// Why: V8 keeps the source text of every module it loads. Unbundled, `run` loads all of zod (its 64
// locales, JSON Schema and the rest, about 850 KB) and full-size sources, some held as two-byte
// strings; bundled it holds less than half of that text, about 4 MB less RSS (see `npm run bench`). zod is imported
// as a namespace (`import * as z from 'zod'`, the lint holds it): `import { z }` is one object holding all of zod,
// which the bundle cannot trim (582 KB); as a namespace, 141 KB. That and the regular expressions' escapes below: the
// bin holds 1.5 MB less on the image's Node 26 (86.6 -> 84.9 MB, its bench run two times each, in turn).
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import process from 'node:process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BOARD_BUNDLE, BOARD_ENTRY, BROWSER_BUILD } from '../dist/outputs/web/board-bundle.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const CHUNK = /^main\..+\.js$/;

// tsc's map of main.js would describe a file that is no longer there.
for (const name of await readdir(dist)) if (CHUNK.test(name) || name === 'main.js.map') await rm(join(dist, name));

// Node's own modules are loaded through require(), never as ES modules. Importing one as an ES module makes Node build
// its module facade, which reads every export once: on Node 26 (not 20) `node:http` exports WebSocket, CloseEvent and
// MessageEvent as lazy getters, and reading them loads Node's own copy of undici (about 800 KB of source) with zlib
// and the web streams, none of which the bridge uses (it has its own undici for the portal). On the image's Node
// 26.12.1 with the bin's V8 flags, `import 'node:http'` alone holds 57.5 MB RSS and `require('node:http')` 45.9; the
// bin with the web server on, three children, 92.1 -> 89.5 MB (`node dist/bench/bin-rss.js --web --node ...`, medians
// of three). node:fs, node:util and node:process build facades that load a few modules more for nothing too.
const BUILTIN = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      BUILTIN.has(args.path) && args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined,
    );
    // A CommonJS module of one line: esbuild turns the named imports into reads of what require() returns.
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// mqtt.js's transports for WebSockets and SOCKS proxies (the `ws`, `socks`, `ip-address` and `smart-buffer` packages,
// about 160 KB of source) and its timers for browsers (`worker-timers` with the Babel runtime, about 40 KB): V8 keeps the
// whole text of every chunk it loads, used or not. A plain mqtt:// broker never runs them (src/outputs/mqtt/client.ts
// opens its socket itself). The transports stay where npm put them and are loaded from there by the one path that
// uses them (mqtts://, or a proxy in MQTTJS_SOCKS_PROXY: mqtt.js's connect() loads every transport at its first call);
// the browser's timers are never chosen on Node (mqtt.js's `timerVariant: 'auto'` is the native one there), and the
// stub says so if anything ever asks for them.
const MQTT_TRANSPORTS = /[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib[\\/]connect[\\/]/;
const mqttBeyondTcp = {
  name: 'mqtt-beyond-tcp',
  setup(build) {
    build.onResolve({ filter: /^\.\/(ws|socks)$/ }, (args) =>
      MQTT_TRANSPORTS.test(args.importer) ? { path: `mqtt/lib/connect/${args.path.slice(2)}`, external: true } : undefined,
    );
    build.onResolve({ filter: /^worker-timers$/ }, () => ({ path: 'worker-timers', namespace: 'browser-only' }));
    build.onLoad({ filter: /.*/, namespace: 'browser-only' }, () => ({
      contents:
        "const refused = () => { throw new Error('worker-timers: a browser timer, not bundled for Node'); };\n" +
        'module.exports = { setInterval: refused, clearInterval: refused, setTimeout: refused, clearTimeout: refused };',
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { main: join(root, 'src', 'main.ts') },
  plugins: [builtinsThroughRequire, mqttBeyondTcp],
  outdir: dist,
  bundle: true,
  splitting: true,
  // Chunks sit next to main.js: version.ts reads the nearest package.json above its own file, one folder up.
  chunkNames: 'main.[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Whitespace and syntax minified, names kept: a stack trace a user pastes names the functions
  // (`at loadConfigFile (file:///.../dist/main.chunk-....js:1:2345)`). Measured with
  // `node dist/bench/bin-rss.js`, 3 runs each, interleaved, on a loaded 2-core machine: every name
  // minified 120.0-120.4 MB, names kept 120.6-121.1 (+0.8), a source map with --enable-source-maps
  // 127.1-127.6 (+7: Node parses every chunk's map when it loads it).
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: false,
  // Escaped non-ASCII keeps every source one-byte: a single 'ł' makes V8 store a file's text at two
  // bytes per character.
  charset: 'ascii',
  // pino finds its worker files next to its own (transports); it stays a package of node_modules.
  external: ['pino'],
  // The CommonJS packages inside an ES module bundle call require().
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});

// esbuild's `charset: 'ascii'` escapes strings and templates but leaves a regular expression's literal as written
// (`/ł/`, `/dost[eę]pu/`): one such character and V8 holds the whole chunk's text at two bytes per character (a 450 KB
// chunk, 900 KB). `\uXXXX` means the same character in a regular expression as in a string: every one is written so.
for (const name of await readdir(dist)) {
  if (!CHUNK.test(name) && name !== 'main.js') continue;
  const file = join(dist, name);
  const text = await readFile(file, 'utf8');
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) await writeFile(file, ascii);
}

await build({ ...BROWSER_BUILD, entryPoints: [join(root, BOARD_ENTRY)], outfile: join(root, BOARD_BUNDLE) });

// The dashboard's template files, which the generator reads from dist/<path> (src/features/screens/templates.ts).
const src = join(root, 'src');
for (const file of await readdir(src, { recursive: true })) {
  if (file.endsWith('.jinja')) await cp(join(src, file), join(dist, file));
}

// The documentation's generated tables (the entities', the app's, the polling schedule), where the pages are: a
// checkout, not the image's build. A new entity's row is written here; its description stays by hand.
if (existsSync(join(root, 'docs', 'entities.md'))) {
  const { writeTables } = await import('./readme-tables.mjs');
  for (const page of writeTables()) process.stdout.write(`${page}: its generated table rewritten\n`);
}
