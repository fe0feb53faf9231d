// A free TCP port for the benchmark's servers: a leaf that the simulated days and the real-time world both use.
import { createServer } from 'node:net';

/** A port free right now on 127.0.0.1 (the config's http.port 0 means "off", not "any"). */
export async function freeTcpPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
