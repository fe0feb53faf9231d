// Two demos side by side in one folder each keep their own config file: the second takes
// dziennik2mqtt-demo-2.yaml while the first runs, and neither overwrites nor removes the other's. A file
// a killed demo left behind is taken over.
import { spawn } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG_NAME, writeDemoConfig } from '../../../src/app/demo/config.js';
import { tempDir } from '../../helpers/temp.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The file the first demo, another process still running, wrote into dir. */
async function firstDemosFile(dir: string, pid: number): Promise<string> {
  const text = `# written by the demo of process ${pid}\nmqtt:\n  url: mqtt://127.0.0.1:1884\n`;
  await writeFile(join(dir, DEMO_CONFIG_NAME), text);
  return text;
}

describe('the demo config file', () => {
  it('is a file of its own for a second demo beside a running one, removed on its stop without touching the first', async (ctx) => {
    const dir = await tempDir('d2m-demo-two-');
    dirs.push(dir);
    const first = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    ctx.onTestFinished(() => void first.kill());
    const firstText = await firstDemosFile(dir, first.pid!);
    const second = await writeDemoConfig({ mqtt: { url: 'mqtt://user:secret@127.0.0.1:1885' } }, dir, dir);
    expect(second.shown).toBe(join(dir, 'dziennik2mqtt-demo-2.yaml'));
    expect(await readFile(join(dir, DEMO_CONFIG_NAME), 'utf8')).toBe(firstText);
    const secondText = await readFile(join(dir, 'dziennik2mqtt-demo-2.yaml'), 'utf8');
    expect(secondText).toContain('url: mqtt://127.0.0.1:1885');
    expect(secondText).not.toContain('secret');
    await second.remove();
    await expect(stat(join(dir, 'dziennik2mqtt-demo-2.yaml'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, DEMO_CONFIG_NAME), 'utf8')).toBe(firstText);
  });

  it('takes over the file of a demo that no longer runs', async () => {
    const dir = await tempDir('d2m-demo-left-');
    dirs.push(dir);
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    await firstDemosFile(dir, gone.pid!);
    const file = await writeDemoConfig({ mqtt: { url: 'mqtt://127.0.0.1:1885' } }, dir, dir);
    expect(file.shown).toBe(join(dir, DEMO_CONFIG_NAME));
    expect(await readFile(join(dir, DEMO_CONFIG_NAME), 'utf8')).toContain('url: mqtt://127.0.0.1:1885');
  });
});
