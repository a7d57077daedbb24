import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT, serviceEnv } from './config.js';
import { waitFor } from './wait.js';

export type RunningService = {
  child: ChildProcess;
  /** Everything the process wrote, for assertions and for failure messages. */
  output: () => string;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
  /** SIGTERM, then resolves with the exit code once the process is gone. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

/** Starts a built service (services/<name>/dist/main.js) with the test environment. */
export function startService(name: string, env: Record<string, string> = {}): RunningService {
  const child = spawn(process.execPath, [`${REPO_ROOT}services/${name}/dist/main.js`], {
    env: serviceEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once GET url answers 200; fails with the service's output otherwise. */
export async function waitHealthy(url: string, service?: RunningService, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      if (service && service.child.exitCode !== null) {
        throw new Error(`service exited early:\n${service.output()}`);
      }
      const res = await fetch(url).catch(() => undefined);
      return res?.status === 200;
    },
    { timeoutMs, what: `${url} to answer 200` },
  );
}

/** Runs the framedeck CLI (built) with the test environment. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${REPO_ROOT}services/cli/bin/framedeck.js`, ...args], {
      env: serviceEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
