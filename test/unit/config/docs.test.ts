// What config.example.yaml, the README and package.json tell a new user must stay true.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configPath, parseArgs } from '../../../src/cli.js';
import { loadConfigFile } from '../../../src/config/load.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (name: string): Promise<string> => readFile(join(REPO, name), 'utf8');

describe('the first hour', () => {
  it('config.example.yaml is a valid config once its variable is set, with data_dir next to it', async () => {
    const config = await loadConfigFile(join(REPO, 'config.example.yaml'), { env: { LOGIN1_PASSWORD: 'x' } });
    expect(config.data_dir).toBe(join(REPO, 'data'));
    expect(config.accounts[0]?.messages[0]?.topic).toBe('Nieobecność: {first_name} {last_name}, klasa {class}');
  });

  it('the README names the Node version that package.json requires', async () => {
    const engines = (JSON.parse(await read('package.json')) as { engines: { node: string } }).engines.node;
    const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(engines)?.[1];
    expect(minimum).toBeDefined();
    expect(await read('README.md')).toContain(`Node.js ${minimum} or later`);
  });

  it('npm start leaves the config file to the CLI, so $DZIENNIK2MQTT_CONFIG is honoured', async () => {
    const start = (JSON.parse(await read('package.json')) as { scripts: { start: string } }).scripts.start;
    const argv = start.split(/\s+/).slice(start.split(/\s+/).indexOf('dist/main.js') + 1);
    expect(configPath(parseArgs(argv), { DZIENNIK2MQTT_CONFIG: '/etc/d2m.yaml' })).toBe('/etc/d2m.yaml');
  });
});
