// What python3 on this machine has, for the tests that drive Home Assistant's own Python (Jinja2's templates, PyYAML's
// reading, the MCP SDK's client; .ci/run installs each): a test is skipped only outside CI without it.
import { execFileSync } from 'node:child_process';

const found = new Map<string, boolean>();

/**
 * Whether python3 finds the module: found, not imported (the MCP SDK's import costs a second of CPU), and asked once a
 * worker (the files that share one). A module found and broken fails the tests that use it, as it should.
 */
export function pythonHas(module: string): boolean {
  let has = found.get(module);
  if (has === undefined) {
    try {
      execFileSync('python3', ['-c', `import importlib.util, sys; sys.exit(importlib.util.find_spec(${JSON.stringify(module)}) is None)`], {
        stdio: 'ignore',
      });
      has = true;
    } catch {
      has = false;
    }
    found.set(module, has);
  }
  return has;
}
