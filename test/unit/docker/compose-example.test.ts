// The Compose example in examples/compose: it parses, the broker config it mounts exists and asks for
// users, and the bridge reaches the broker by its service name with the volume the image declares.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'compose');

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}

const compose = parse(readFileSync(join(EXAMPLE, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };

/** host path (relative to the example) -> container path, for a service's bind mounts. */
function mounts(service: Service): Map<string, string> {
  return new Map((service.volumes ?? []).map((v) => v.split(':') as [string, string]));
}

describe('the Compose example', () => {
  it('has a Mosquitto whose mounted config listens on 1883 and admits only the users of its password file', () => {
    const mosquitto = compose.services.mosquitto!;
    expect(mosquitto.image).toMatch(/^eclipse-mosquitto:2/);
    expect(mosquitto.ports).toContain('1883:1883');
    const configDir = [...mounts(mosquitto)].find(([, inside]) => inside === '/mosquitto/config')?.[0];
    expect(configDir).toBeDefined();
    const confFile = join(EXAMPLE, configDir!, 'mosquitto.conf');
    expect(existsSync(confFile)).toBe(true);
    const conf = readFileSync(confFile, 'utf8')
      .split('\n')
      .map((l) => l.trim());
    expect(conf).toContain('listener 1883');
    expect(conf).toContain('allow_anonymous false');
    // The password file lies in the mounted folder, where mosquitto_passwd writes it.
    const passwordFile = conf.find((l) => l.startsWith('password_file '))?.split(' ')[1];
    expect(passwordFile && posix.dirname(passwordFile)).toBe('/mosquitto/config');
  });

  it('points the bridge at the broker service and mounts the volume the image declares', () => {
    const bridge = compose.services.dziennik2mqtt!;
    const url = new URL(bridge.environment!.DZIENNIK2MQTT_MQTT_URL!);
    expect(Object.keys(compose.services)).toContain(url.hostname);
    expect(url.port).toBe('1883');
    const dockerfile = readFileSync(join(EXAMPLE, bridge.build!, 'Dockerfile'), 'utf8');
    const volume = /^VOLUME (\S+)$/m.exec(dockerfile)?.[1];
    expect(volume).toBe('/config');
    expect([...mounts(bridge).values()]).toContain(volume);
    // The image runs as the node user (uid 1000), the owner the README tells to chown the folder to.
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
