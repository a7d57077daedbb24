import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CLICKHOUSE_ENGINE,
  CLICKHOUSE_PID_NAME,
  inheritedEnv,
  REPO_ROOT,
  serviceEnv,
  STATE_DIR,
} from '../../support/config.js';
import { waitFor } from '../../support/wait.js';
import { isProcessAlive } from '../../support/processes.js';

const run = promisify(execFile);

export type Component = 'postgres' | 'redis' | 'clickhouse' | 'kafka';

/**
 * Ports of the fault stack: far from the shared stack's (5432, 6379, 8123/8124, 9000/9001, 9092/9093)
 * and from the test services' (18080-18083), so killing these never touches what other
 * engineers, `npm start` or other test files use.
 * NOTE: all below Linux's ephemeral range (32768–60999). These tests restart components on their
 * ports, and an outgoing connection's local end can hold a port of that range: measured in a clean-clone CI
 * run, the second consumer's 58084 was taken (EADDRINUSE) when the rebalance test started it.
 */
export const FAULT_PORTS = {
  postgres: 30432,
  redis: 30379,
  clickhouseHttp: 30123,
  clickhouseTcp: 30900,
  clickhouseModernHttp: 30124,
  clickhouseModernTcp: 30901,
  kafka: 30092,
  kafkaController: 30093,
  kafkaSasl: 30094,
  kafkaSaslSsl: 30095,
  api: 30080,
  ingest: 30081,
  consumerHealth: 30082,
  secondConsumerHealth: 30084,
} as const;

const SCRIPTS = `${REPO_ROOT}infra/local`;
// One fault stack per machine: the ports are fixed. /tmp, not the state dir, so that two
// clones of the repository (two engineers) also take turns.
const LOCK_DIR = join(tmpdir(), 'framedeck-reliability-fault-stack.lock');
const LOCK_WAIT_MS = 240_000;

/**
 * A private Postgres, Redis, ClickHouse and Kafka on loopback, started for the fault tests,
 * which SIGKILL and restart each of them. Kafka, ClickHouse and Redis come from the project's
 * own infra/local scripts (another state dir and other ports, so another set of pid files);
 * Postgres is a throwaway cluster (initdb in a temp dir), since the scripts would create a
 * persistent Debian cluster. Nothing here ever signals a process the scripts did not start
 * for this stack.
 */
export class FaultStack {
  private constructor(
    readonly stateDir: string,
    private readonly pgDir: string,
  ) {}

  /** FRAMEDECK_* variables pointing services, the CLI and test clients at this stack. */
  readonly env: Record<string, string> = {
    FRAMEDECK_POSTGRES_URL: `postgres://postgres:postgres@127.0.0.1:${FAULT_PORTS.postgres}/framedeck_reliability`,
    FRAMEDECK_REDIS_URL: `redis://127.0.0.1:${FAULT_PORTS.redis}`,
    FRAMEDECK_REDIS_PREFIX: 'fdrel:',
    // The fault stack runs the ClickHouse engine under test (FRAMEDECK_CLICKHOUSE_ENGINE).
    FRAMEDECK_CLICKHOUSE_ENGINE: CLICKHOUSE_ENGINE,
    FRAMEDECK_CLICKHOUSE_URL: `http://127.0.0.1:${CLICKHOUSE_ENGINE === 'modern' ? FAULT_PORTS.clickhouseModernHttp : FAULT_PORTS.clickhouseHttp}`,
    FRAMEDECK_CLICKHOUSE_DATABASE: 'framedeck_reliability',
    FRAMEDECK_KAFKA_BROKERS: `127.0.0.1:${FAULT_PORTS.kafka}`,
    FRAMEDECK_KAFKA_EVENTS_TOPIC: 'framedeck-reliability.telemetry-batches.v1',
    FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: 'framedeck-reliability.telemetry-batches.dead-letter.v1',
    FRAMEDECK_KAFKA_CONSUMER_GROUP: 'framedeck-reliability-events-consumer',
    FRAMEDECK_API_PORT: String(FAULT_PORTS.api),
    FRAMEDECK_APP_ORIGIN: `http://127.0.0.1:${FAULT_PORTS.api}`,
    FRAMEDECK_INGEST_PORT: String(FAULT_PORTS.ingest),
    FRAMEDECK_INGEST_URL: `http://127.0.0.1:${FAULT_PORTS.ingest}`,
    FRAMEDECK_CONSUMER_HEALTH_PORT: String(FAULT_PORTS.consumerHealth),
  };

  /** Starts all four components and migrates them; stop() undoes it, even half-way. */
  static async start(): Promise<FaultStack> {
    // NOTE: two test runs on one machine (two engineers' `npm test`) would otherwise share
    // these ports and this state dir, and each would wipe and SIGKILL the other's stack.
    await acquireLock(LOCK_DIR);
    const stateDir = `${STATE_DIR}/reliability`;
    // A run that crashed may have left its components running: stop what its pid files name,
    // and never reuse a server found on these ports (it would not be this run's, fresh one).
    await new FaultStack(stateDir, '').scripts('down.sh', 'kafka', 'clickhouse', 'redis').catch(() => undefined);
    for (const [name, port] of Object.entries(FAULT_PORTS)) {
      if (await portOpen(port)) {
        releaseLock(LOCK_DIR);
        throw new Error(`port ${port} (${name}) of the fault stack is taken by another process; stop it first`);
      }
    }
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(`${stateDir}/kafka`, { recursive: true });
    // The Kafka jars the main stack already fetched (install.sh sees their marker and skips).
    symlinkSync(`${STATE_DIR}/kafka/libs`, `${stateDir}/kafka/libs`);
    const stack = new FaultStack(stateDir, mkdtempSync(join(tmpdir(), 'framedeck-reliability-pg-')));
    try {
      await stack.initPostgres();
      await stack.restart('postgres');
      await stack.scripts('up.sh', 'redis', 'clickhouse', 'kafka');
      const migrate = await run(process.execPath, [`${REPO_ROOT}services/cli/bin/framedeck.js`, 'migrate'], {
        env: serviceEnv(stack.env),
      });
      if (!migrate.stdout && !migrate.stderr) throw new Error('migrate printed nothing');
      return stack;
    } catch (error) {
      await stack.stop();
      throw error;
    }
  }

  /** SIGKILL, no warning: the process gets no chance to flush, commit or say goodbye. */
  async kill(component: Component): Promise<void> {
    const pid = this.pidOf(component);
    if (pid === undefined) throw new Error(`${component} of the fault stack is not running`);
    process.kill(pid, 'SIGKILL');
    await waitFor(async () => !isProcessAlive(pid) && !(await portOpen(portOf(component))), {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: `${component} (pid ${pid}) to be gone`,
    });
  }

  /** Starts a stopped component again (the scripts for all but Postgres) and waits until it serves. */
  async restart(component: Component): Promise<void> {
    if (component !== 'postgres') return this.scripts('up.sh', component);
    // NOTE: after a SIGKILL of the postmaster its backends exit on their own a moment later;
    // until then the old shared memory is still attached and a new postmaster refuses to start.
    await waitFor(
      async () => {
        await this.asPostgres(this.pgBin('pg_ctl'), [
          'start',
          '-w',
          '-t',
          '20',
          '-D',
          `${this.pgDir}/data`,
          '-l',
          `${this.pgDir}/postgres.log`,
          '-o',
          `-p ${FAULT_PORTS.postgres} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.pgDir}`,
        ]);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the fault stack Postgres to start' },
    );
  }

  async isUp(component: Component): Promise<boolean> {
    return portOpen(portOf(component));
  }

  /** Stops whatever of this stack runs and removes its data. Safe to call twice. */
  async stop(): Promise<void> {
    await this.scripts('down.sh', 'kafka', 'clickhouse', 'redis').catch(() => undefined);
    const pg = this.pidOf('postgres');
    if (pg !== undefined) {
      await this.asPostgres(this.pgBin('pg_ctl'), ['stop', '-m', 'immediate', '-D', `${this.pgDir}/data`]).catch(() =>
        process.kill(pg, 'SIGKILL'),
      );
    }
    rmSync(this.pgDir, { recursive: true, force: true });
    rmSync(`${this.stateDir}/kafka/data`, { recursive: true, force: true });
    rmSync(`${this.stateDir}/clickhouse/data`, { recursive: true, force: true });
    releaseLock(LOCK_DIR);
  }

  /** One line per component, as infra/local/status.sh reports this stack. */
  async status(): Promise<string> {
    const { stdout } = await run('bash', [`${SCRIPTS}/status.sh`], { env: this.scriptEnv() });
    const pg = (await this.isUp('postgres')) ? 'up' : 'down';
    return `${stdout.trim()}\n(this stack's postgres on 127.0.0.1:${FAULT_PORTS.postgres}: ${pg}; the line above for port ${FAULT_PORTS.postgres} is the same server)`;
  }

  private pidOf(component: Component): number | undefined {
    const file =
      component === 'postgres'
        ? `${this.pgDir}/data/postmaster.pid`
        : `${this.stateDir}/run/${component === 'clickhouse' ? CLICKHOUSE_PID_NAME : component}.pid`;
    if (!existsSync(file)) return undefined;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && isProcessAlive(pid) ? pid : undefined;
  }

  private async initPostgres(): Promise<void> {
    if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', this.pgDir]);
    await this.asPostgres(this.pgBin('initdb'), [
      '-D',
      `${this.pgDir}/data`,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
  }

  private pgBin(name: string): string {
    const versions = existsSync('/usr/lib/postgresql')
      ? readdirNumeric('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/${name}`))
      : [];
    return versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin/${name}` : name;
  }

  /** initdb and pg_ctl refuse to run as root: run them as the postgres user then. */
  private asPostgres(bin: string, args: string[]) {
    return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
  }

  private scriptEnv(): NodeJS.ProcessEnv {
    return inheritedEnv({
      FRAMEDECK_STATE_DIR: this.stateDir,
      FRAMEDECK_POSTGRES_PORT: String(FAULT_PORTS.postgres),
      FRAMEDECK_REDIS_PORT: String(FAULT_PORTS.redis),
      FRAMEDECK_CLICKHOUSE_HTTP_PORT: String(FAULT_PORTS.clickhouseHttp),
      FRAMEDECK_CLICKHOUSE_TCP_PORT: String(FAULT_PORTS.clickhouseTcp),
      FRAMEDECK_CLICKHOUSE_MODERN_HTTP_PORT: String(FAULT_PORTS.clickhouseModernHttp),
      FRAMEDECK_CLICKHOUSE_MODERN_TCP_PORT: String(FAULT_PORTS.clickhouseModernTcp),
      FRAMEDECK_CLICKHOUSE_ENGINE: CLICKHOUSE_ENGINE,
      FRAMEDECK_KAFKA_PORT: String(FAULT_PORTS.kafka),
      FRAMEDECK_KAFKA_CONTROLLER_PORT: String(FAULT_PORTS.kafkaController),
      FRAMEDECK_KAFKA_SASL_PORT: String(FAULT_PORTS.kafkaSasl),
      FRAMEDECK_KAFKA_SASL_SSL_PORT: String(FAULT_PORTS.kafkaSaslSsl),
    });
  }

  private async scripts(script: 'up.sh' | 'down.sh', ...components: Component[]): Promise<void> {
    await run('bash', [`${SCRIPTS}/${script}`, ...components], { env: this.scriptEnv(), timeout: 180_000 });
  }
}

function portOf(component: Component): number {
  switch (component) {
    case 'postgres':
      return FAULT_PORTS.postgres;
    case 'redis':
      return FAULT_PORTS.redis;
    case 'clickhouse':
      return FAULT_PORTS.clickhouseHttp;
    case 'kafka':
      return FAULT_PORTS.kafka;
  }
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

function readdirNumeric(dir: string): string[] {
  return readdirSyncSafe(dir)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(a) - Number(b));
}

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Waits for the machine-wide fault-stack lock (an atomic mkdir holding the owner's pid). A lock
 * whose owner died is taken over.
 */
async function acquireLock(dir: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(`${dir}/pid`, String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(existsSync(`${dir}/pid`) ? readFileSync(`${dir}/pid`, 'utf8') : NaN);
    // A lock without a pid file is a few microseconds old (or its owner died right away).
    if (Number.isInteger(owner) && owner > 0 && !isProcessAlive(owner)) rmSync(dir, { recursive: true, force: true });
    if (Date.now() > deadline) {
      throw new Error(`another test run (pid ${owner}) has held the fault stack for over ${LOCK_WAIT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

function releaseLock(dir: string): void {
  const owner = existsSync(`${dir}/pid`) ? Number(readFileSync(`${dir}/pid`, 'utf8')) : undefined;
  if (owner === process.pid) rmSync(dir, { recursive: true, force: true });
}
