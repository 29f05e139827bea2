// Starts `socialpub sandbox` as a child process for whole-process benchmarks and returns its
// ready line (baseUrl, workspaces with keys) and a stop function.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, benchEnv } from './lib.mjs';

export async function startSandboxChild(args = []) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', ...args], {
    env: benchEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code} before it was ready`)));
    lines.once('line', (line) => resolve(JSON.parse(line)));
  });
  const demo = ready.workspaces.find((w) => w.name === 'demo');
  return {
    ...ready,
    pid: child.pid,
    apiKey: demo.apiKey,
    env: (extra = {}) => benchEnv({ SOCIALPUB_BASE_URL: ready.baseUrl, SOCIALPUB_API_KEY: demo.apiKey, SOCIALPUB_CONFIG_DIR: '/nonexistent-socialpub-bench', ...extra }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGINT');
      }),
  };
}
