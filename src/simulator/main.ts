// Starts the simulator alone for manual runs: `node dist/simulator/main.js [port]` prints the five URLs,
// the demo logins and the demo family's e-mail, and runs until Ctrl-C.
import { DEMO_ACCOUNTS, DEMO_FAMILY, PortalSimulator } from './index.js';

async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: main.js [port]\n');
    process.exitCode = 2;
    return;
  }
  const simulator = new PortalSimulator({ port });
  await simulator.start();
  const lines = [
    'Portal simulator running:',
    ...Object.entries(simulator.urls).map(([key, url]) => `  ${key.padEnd(12)} ${url}`),
    'Logins:',
    ...DEMO_ACCOUNTS.map((a) => `  ${a.login} / ${a.password}`),
    `  ${DEMO_FAMILY.email} / ${DEMO_FAMILY.password} (the family portal: every child)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => void simulator.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
