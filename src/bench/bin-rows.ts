// The bench's rows of the bin as a user starts it (bin-rss.ts), in real time: plainly on this Node and on the image's,
// with the web server on and a tablet using it, with the web and MCP server on the image's Node, and the same while a
// hostile portal serves the first child's standing plan. `npm run bench -- --bin` prints these rows alone.
import { count, decimal } from './doc-figures.js';
import { binRss, type BinRss } from './bin-rss.js';
import type { checkoutImageNode } from './image-node.js';
import { nodeFloor } from './node-floor.js';
import type { BenchTableRow as Row } from './results.js';
import { HOSTILE_STANDING_TIMETABLE } from '../simulator/data/timetable.js';

/**
 * The runs wait most of their minute for the refresh gate; they run side by side, each with its own simulator, broker
 * and process tree, so their RSS readings stay apart.
 */
export async function binRows(root: string, image: Awaited<ReturnType<typeof checkoutImageNode>>, log: (text: string) => void) {
  const rows: Row[] = [];
  const json: Record<string, unknown> = {};
  const figures: Record<string, string> = {};
  log(
    `starting the bin plainly (node dist/main.js run) with three children, ${image ? `on the image's Node ${image.version}, ` : ''}and with the web server on and a tablet using it (on both Nodes), side by side (real time)...`,
  );
  const [bin, onImage, web, webOnImage, hostileOnImage] = await Promise.all([
    binRss(),
    image === undefined ? undefined : binRss([], { execPath: image.execPath }),
    binRss([], { web: true }),
    // The web server serves the MCP server too (interface 16.4): the image's Node with both on.
    image === undefined ? undefined : binRss([], { web: true, execPath: image.execPath }),
    // The same with a hostile portal's standing plan for the first child (interface 19.2).
    image === undefined ? undefined : binRss([], { web: true, execPath: image.execPath, hostileTimetable: true }),
  ]);
  const bridgeProcess = bin.processes.at(-1);
  const launcher = bin.processes.length > 1 ? bin.processes[0] : undefined;
  // What the bin holds in memory: the bridge's RSS plus the pages only the launcher has (Node before
  // 22.15 cannot replace its process image, so the first process stays to pass signals and the exit
  // code on). A plain sum of RSS would count node's code, shared by both, twice.
  const held = heldBy(bin);
  rows.push({ measure: 'RSS of the bin started plainly, 3 children (MB)', value: held.toFixed(0), target: '<= 85', ok: held <= 85 });
  rows.push({ measure: '  the bridge process alone (MB)', value: (bridgeProcess?.rssMB ?? 0).toFixed(0), target: '', ok: null });
  if (launcher) {
    rows.push({
      measure: '  the launcher (Node < 22.15): RSS / own pages (MB)',
      value: `${launcher.rssMB.toFixed(0)} / ${launcher.privateMB.toFixed(1)}`,
      target: '',
      ok: null,
    });
  }
  rows.push({
    measure: 'bin stopped by SIGTERM: exit 0, offline published',
    value: `${bin.exitCode}, ${bin.offline}`,
    target: '0, true',
    ok: bin.exitCode === 0 && bin.offline,
  });
  json.bin = bin;
  figures.rss_bin = decimal(held, 0);

  if (image === undefined || onImage === undefined) {
    rows.push({ measure: "RSS of the bin on the image's Node, 3 children (MB)", value: 'not had', target: '<= 85', ok: null });
  } else {
    const heldOnImage = heldBy(onImage);
    rows.push({
      measure: `RSS of the bin on the image's Node ${image.version}, 3 children (MB)`,
      value: heldOnImage.toFixed(0),
      target: '<= 85',
      ok: heldOnImage <= 85,
    });
    const floor = await nodeFloor(image.execPath, root);
    rows.push({
      measure: `  Node ${image.major} bare / with the six packages imported (MB)`,
      value: `${floor.bareMB.toFixed(0)} / ${floor.packagesMB.toFixed(0)}`,
      target: '',
      ok: null,
    });
    json.bin_image = { version: image.version, ...onImage, floor };
    Object.assign(figures, { rss_bin_image: decimal(heldOnImage, 0), image_node: image.version });
  }

  const heldWeb = heldBy(web);
  rows.push({
    measure: 'RSS with the web server on, 3 children (MB)',
    value: `${heldWeb.toFixed(0)} (${heldWeb - held >= 0 ? '+' : ''}${(heldWeb - held).toFixed(1)})`,
    target: '<= off + 5',
    ok: heldWeb - held <= 5,
  });
  json.bin_web = web;
  if (webOnImage !== undefined && image !== undefined) {
    const heldWebOnImage = heldBy(webOnImage);
    rows.push({
      measure: `RSS of the bin on the image's Node ${image.version} with the web and MCP server on, 3 children (MB)`,
      value: heldWebOnImage.toFixed(0),
      // Interface 17.4: 90 with both servers on (85 before the thirteenth round).
      target: '<= 90',
      ok: heldWebOnImage <= 90,
    });
    json.bin_web_image = webOnImage;
    figures.rss_web_image = decimal(heldWebOnImage, 0);
    if (hostileOnImage !== undefined) {
      rows.push(hostileTimetableRow(hostileOnImage, heldWebOnImage, image.version));
      json.bin_hostile_timetable_image = hostileOnImage;
      const grown = heldBy(hostileOnImage) - heldWebOnImage;
      Object.assign(figures, {
        rss_hostile_timetable_image: decimal(heldBy(hostileOnImage), 0),
        rss_hostile_timetable_delta: `${grown >= 0 ? '+' : ''}${decimal(grown)}`,
      });
    }
  }
  const mcp = web.mcp ?? { calls: 0, slowestMs: Number.NaN, failed: 0 };
  rows.push({
    measure: `an MCP read tool as Home Assistant calls it, slowest of ${mcp.calls} (every tool, each child and all at once; ms)`,
    value: `${mcp.slowestMs.toFixed(0)}${mcp.failed > 0 ? ` (${mcp.failed} failed)` : ''}`,
    target: '<= 200',
    ok: mcp.calls > 0 && mcp.failed === 0 && mcp.slowestMs <= 200,
  });
  figures.mcp_slowest_ms = decimal(mcp.slowestMs, 0);
  Object.assign(figures, { rss_web: decimal(heldWeb, 0), rss_web_delta: `${heldWeb - held >= 0 ? '+' : ''}${decimal(heldWeb - held)}` });
  return { rows, json, figures };
}

/**
 * The bin on the image's Node with the web and MCP server on while the first child's portal answers a hostile standing
 * plan, against the same run without it. It counts only if the bridge read the plan and cut it at its most.
 */
function hostileTimetableRow(hostile: BinRss, withoutMB: number, version: string): Row {
  const held = heldBy(hostile);
  const read = hostile.hostileTimetable?.reads ?? 0;
  const { entries, repeats } = HOSTILE_STANDING_TIMETABLE;
  const listed = `"listed":${entries + repeats},`;
  const logged = hostile.hostileTimetable?.logged ?? [];
  // Bounded either way: cut to its most as it is parsed, or (over its byte cap) refused unread.
  const cut = logged.some((line) => line.includes('cut at its most') && line.includes(listed));
  const refused = logged.some((line) => line.includes('refused unread'));
  const delta = held - withoutMB;
  const how = read === 0 ? ' (never read)' : refused ? ' (refused unread)' : cut ? ' (cut)' : ' (neither cut nor refused)';
  return {
    measure: `bin RSS with a hostile standing plan (${count(entries)} entries + ${count(repeats)} repeats), Node ${version}, web and MCP on (MB)`,
    value: `${held.toFixed(0)} (${delta >= 0 ? '+' : ''}${delta.toFixed(1)})${how}`,
    target: '<= 90',
    ok: held <= 90 && read > 0 && (cut || refused),
  };
}

/** What the bin holds: the bridge process's RSS plus the pages only its launcher (if any) has. */
function heldBy(bin: BinRss): number {
  const bridgeProcess = bin.processes.at(-1);
  const launcher = bin.processes.length > 1 ? bin.processes[0] : undefined;
  return (bridgeProcess?.rssMB ?? 0) + (launcher?.privateMB ?? 0);
}
