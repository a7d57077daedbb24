import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ClickHouseWriter, openConnection, sql } from '@framedeck/clickhouse';
import { clickhouseSection } from '@framedeck/config';
import { inheritedEnv, REPO_ROOT, STATE_DIR } from '../../support/config.js';
import { waitFor } from '../../support/wait.js';
import { CLUSTER_ENV } from './cluster-env.js';

// The cluster topology's pieces as the tests reach them: each ClickHouse node on its own port,
// the topology's components by pid file, and the services twice behind the balancers, run by
// infra/local/run-services.mjs as `FRAMEDECK_TOPOLOGY=cluster npm start` runs them.

export const clickhouseConfig = clickhouseSection(CLUSTER_ENV);

/** The four ClickHouse nodes' own HTTP ports (cluster.sh: the balancer's port + 1 … + 4). */
export const NODE_PORTS = [1, 2, 3, 4].map((n) => Number(new URL(clickhouseConfig.url).port) + n);

/** A writer on one node only (no cluster: what this node holds, not the Distributed view). */
export function nodeWriter(port: number): ClickHouseWriter {
  return new ClickHouseWriter(
    openConnection({
      url: `http://127.0.0.1:${port}`,
      user: clickhouseConfig.admin.user,
      password: clickhouseConfig.admin.password,
      database: clickhouseConfig.database,
      requestTimeoutMs: 120_000,
    }),
  );
}

/** `read` on the node of `port`. */
export async function onNode<T>(port: number, read: (node: ClickHouseWriter) => Promise<T>): Promise<T> {
  const node = nodeWriter(port);
  try {
    return await read(node);
  } finally {
    await node.close();
  }
}

/** `read` on each node in turn, its answers in node order. */
export async function onEveryNode<T>(read: (node: ClickHouseWriter) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (const port of NODE_PORTS) answers.push(await onNode(port, read));
  return answers;
}

/**
 * How long a read that must see every replica's rows is polled (expect.poll's options): a
 * restarted replica may still be fetching parts after waitReplicasConverged returned.
 */
export const REPLICA_CATCH_UP = { timeout: 120_000, interval: 2_000 } as const;

/**
 * Waits until every node replicates every table of the test database with nothing queued. A
 * replica that was restarted serves its shard's reads through the Distributed tables before it
 * caught up (its old ZooKeeper session keeps it read-only for up to the session timeout, 30 s).
 * An empty queue alone is not caught up: while a peer is not active again, the parts only it
 * holds cannot be fetched yet. (Nor has a replica caught up that has not yet copied the shared
 * log into its queue; the log pointers cannot tell that apart from an empty log, both 0, so the
 * callers that need a replica's rows wait for the rows themselves.)
 */
export async function waitReplicasConverged(): Promise<void> {
  await waitFor(
    async () => {
      const lagging = await onEveryNode(async (node) => {
        const [row] = await node.rows<{ lagging: string }>(
          sql`SELECT count() AS lagging FROM system.replicas
               WHERE database = currentDatabase()
                 AND (is_readonly OR is_session_expired OR queue_size > 0
                      OR active_replicas < total_replicas)`,
        );
        return Number(row?.lagging);
      });
      return lagging.every((n) => n === 0);
    },
    { timeoutMs: 180_000, intervalMs: 1_000, what: 'every replica to catch up' },
  );
}

/** Where infra/clickhouse-cluster/cluster.xml queues ON CLUSTER statements in ZooKeeper. */
const DDL_QUEUE = '/clickhouse/task_queue/ddl';

/**
 * The ON CLUSTER tasks whose statement contains `text`, each with the hosts (`host:port`, as the
 * cluster's remote_servers names them) it was sent to: the nodes whose DDL workers take it.
 */
export async function ddlTasksContaining(text: string): Promise<{ query: string; hosts: string[] }[]> {
  const entries = await onNode(NODE_PORTS[0]!, (node) =>
    node.rows<{ value: string }>(
      sql`SELECT value FROM system.zookeeper WHERE path = ${DDL_QUEUE} AND position(value, ${text}) > 0`,
    ),
  );
  return entries.map(({ value }) => ({
    query: /^query: (.*)$/m.exec(value)?.[1] ?? '',
    // The entry escapes each host as a ZooKeeper node name (`127%2E0%2E0%2E1:9141`).
    hosts: [...(/^hosts: \[(.*)\]$/m.exec(value)?.[1] ?? '').matchAll(/'([^']+)'/g)]
      .map((m) => decodeURIComponent(m[1]!))
      .sort(),
  }));
}

/** The `host:port` of each node of a remote_servers cluster, and how many shards it has. */
export async function clusterHosts(cluster: string): Promise<{ hosts: string[]; shards: number }> {
  const rows = await onNode(NODE_PORTS[0]!, (node) =>
    node.rows<{ host: string; shard: number }>(
      sql`SELECT concat(host_name, ':', toString(port)) AS host, shard_num AS shard
            FROM system.clusters WHERE cluster = ${cluster}`,
    ),
  );
  return { hosts: rows.map((r) => r.host).sort(), shards: new Set(rows.map((r) => r.shard)).size };
}

/** The pid of a topology component (infra/local/cluster.sh's pid files). */
export function pidOf(component: string): number {
  return Number(readFileSync(`${STATE_DIR}/cluster/run/${component}.pid`, 'utf8').trim());
}

/** `cluster.sh <args>`, e.g. `up clickhouse-2` after a kill. */
export function clusterScript(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${REPO_ROOT}infra/local/cluster.sh`, ...args], { stdio: 'ignore' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cluster.sh ${args.join(' ')}: ${code}`))));
  });
}

/**
 * Every service twice behind the balancers (run-services.mjs), with its per-instance control:
 * `control('restart', 'api-1')` stops one instance gracefully and starts it again.
 */
export class ClusterServices {
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
  }

  static async start(): Promise<ClusterServices> {
    const child = spawn(process.execPath, [`${REPO_ROOT}infra/local/run-services.mjs`], {
      env: inheritedEnv(CLUSTER_ENV),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const services = new ClusterServices(child);
    await services.waitForLine('FrameDeck is running.', 240_000);
    return services;
  }

  /** `stop|start|restart <label>` through run-services' standard input; resolves once it is done. */
  async control(command: 'stop' | 'start' | 'restart', label: string): Promise<void> {
    const from = this.output.length;
    this.child.stdin!.write(`${command} ${label}\n`);
    const done = command === 'stop' ? `[framedeck] ${label} stopped` : `[framedeck] ${label} started`;
    await this.waitForLine(done, 120_000, from, `[framedeck] ${command} ${label} failed`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await new Promise((resolve) => this.child.once('exit', resolve));
  }

  private async waitForLine(line: string, timeoutMs: number, from = 0, failure?: string): Promise<void> {
    await waitFor(
      () => {
        const since = this.output.slice(from);
        if (this.child.exitCode !== null) throw new Error(`run-services exited:\n${this.output}`);
        if (failure && since.includes(failure)) throw new Error(since);
        return since.includes(line);
      },
      { timeoutMs, what: `"${line}" from run-services` },
    );
  }
}
