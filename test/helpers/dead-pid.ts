// A pid no process has, for stale-lock tests: a child that ran and exited.
import { spawn } from 'node:child_process';

export function deadPid(): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => resolve(child.pid!));
  });
}
