// The stand-alone image and the web server: the port it EXPOSEs is the config's default http.port, and
// its HEALTHCHECK asks /health there with busybox wget (node:*-alpine has no curl).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
/** The last stage: the stand-alone image (the add-on's stage has the Supervisor's ingress instead). */
const standalone = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

describe('the Dockerfile', () => {
  it("EXPOSEs the config's default web server port", async () => {
    const config = await buildConfig({ accounts: [{ login: '1234567u', password: 'x' }] }, 'test', { env: {} });
    expect(standalone).toMatch(new RegExp(`^EXPOSE ${config.http.port}$`, 'm'));
  });

  it('checks health by /health on that port, with a URL one can change for another http.port', () => {
    const url = /^ENV DZIENNIK2MQTT_HEALTH_URL=(\S+)$/m.exec(standalone)?.[1];
    expect(url).toBe('http://127.0.0.1:8099/health');
    // The instruction with its continuation lines.
    const check = /^HEALTHCHECK ((?:.*\\\n)*.*)$/m.exec(standalone)?.[1] ?? '';
    expect(check).toMatch(/--interval=\d+s/);
    expect(check).toContain('CMD wget -q -O /dev/null "$DZIENNIK2MQTT_HEALTH_URL"');
    // The image is alpine: wget is busybox's, curl is not there.
    expect(dockerfile).toMatch(/^FROM node:\d+-alpine AS runtime$/m);
    expect(check).not.toContain('curl');
  });

  it('ships the bridge, not the bench nor the release tooling: neither the npm package nor the image holds dist/bench or dist/release', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as [
      { files: { path: string }[] },
    ];
    const paths = pack.files.map((f) => f.path);
    expect(paths).toContain('dist/main.js');
    expect(paths.filter((p) => p.startsWith('dist/bench/') || p.startsWith('dist/release/'))).toEqual([]);
    expect(dockerfile).toMatch(/^RUN npm ci .*&& rm -rf dist\/bench dist\/release$/m);
  });
});
