// Runs every FrameDeck service as a child process of `npm start`, waits until each answers
// /healthz, seeds the demo tenant on first start, prints URLs and keys, and stops the
// services on Ctrl-C. Service logs (JSON lines) go to .state/logs/<service>.log.
//
//   node infra/local/run-services.mjs [--seed-demo]
//
// Per-instance control, for rolling restarts by hand or by tests: each running instance's pid is
// in <run dir>/services/<label>.pid, and lines on this process's standard input
//   stop <label> | start <label> | restart <label>
// stop an instance gracefully (SIGTERM, as a deployment would) and start it again, answering
// `[framedeck] <label> stopped` / `[framedeck] <label> started (pid N)` (or `… failed: why`) on
// stdout once done (started = its /healthz answers). Labels are those printed at start
// (api-1, ingest-gateway-2, …; the service name on one node).
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { addressesSection, listenSection, metricsSection } from '../../libs/config/dist/index.js';
import { DEMO, seedDemoProject } from '../../services/cli/dist/commands/demo-seed.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const stateDir = process.env.FRAMEDECK_STATE_DIR || `${root}.state`;
const logDir = `${stateDir}/logs`;
mkdirSync(logDir, { recursive: true });

const SERVICES = [
  {
    name: 'api',
    portVariable: 'FRAMEDECK_API_PORT',
    defaultPort: 8080,
    metricsPort: ['FRAMEDECK_API_METRICS_PORT', 9480],
  },
  {
    name: 'ingest-gateway',
    portVariable: 'FRAMEDECK_INGEST_PORT',
    defaultPort: 8081,
    metricsPort: ['FRAMEDECK_INGEST_METRICS_PORT', 9481],
  },
  {
    name: 'events-consumer',
    portVariable: 'FRAMEDECK_CONSUMER_HEALTH_PORT',
    defaultPort: 8082,
    metricsPort: ['FRAMEDECK_CONSUMER_METRICS_PORT', 9482],
  },
  {
    name: 'alert-evaluator',
    portVariable: 'FRAMEDECK_EVALUATOR_HEALTH_PORT',
    defaultPort: 8083,
    metricsPort: ['FRAMEDECK_EVALUATOR_METRICS_PORT', 9483],
  },
].map((s) => ({
  ...s,
  ...listenSection(process.env, s.portVariable, s.defaultPort),
  metrics: metricsSection(process.env, ...s.metricsPort),
}));

// FRAMEDECK_TOPOLOGY=cluster: every service runs twice; instance i (0, 1) listens on its
// single-node port + 100·(i + 1) (API 8180 and 8280, its metrics 9580 and 9680, …; not + 2000:
// fetch refuses port 10080, one of the WHATWG "bad ports"). The API
// and the gateway keep their public addresses through a tcp-balancer.mjs in front of the pair
// (the consumers share the Kafka group's partitions; the evaluators claim due rules side by side
// through leases, libs/postgres alert-rule-leases).
const CLUSTER = process.env.FRAMEDECK_TOPOLOGY === 'cluster';
const BALANCED = new Set(['api', 'ingest-gateway']);

function instancesOf(service) {
  if (!CLUSTER) return [{ ...service, label: service.name, env: process.env }];
  return [0, 1].map((i) => {
    const port = service.port + 100 * (i + 1);
    const metricsPort = service.metrics.port + 100 * (i + 1);
    return {
      ...service,
      label: `${service.name}-${i + 1}`,
      port,
      metrics: { ...service.metrics, port: metricsPort },
      env: { ...process.env, [service.portVariable]: String(port), [service.metricsPort[0]]: String(metricsPort) },
    };
  });
}

const INSTANCES = SERVICES.flatMap(instancesOf);
const BALANCERS = CLUSTER
  ? SERVICES.filter((s) => BALANCED.has(s.name)).map((s) => ({
      ...s,
      label: `${s.name}-balancer`,
      script: `${root}infra/local/tcp-balancer.mjs`,
      args: [
        '--name',
        s.name,
        '--listen',
        `${s.host}:${s.port}`,
        '--backends',
        instancesOf(s)
          .map((instance) => `${instance.host}:${instance.port}`)
          .join(','),
      ],
      env: process.env,
    }))
  : [];

// The cluster's demo tenant lives in its own Postgres database and ClickHouse cluster: its keys
// are kept apart from the single node's.
const DEMO_FILE = CLUSTER ? `${stateDir}/cluster/demo.json` : `${stateDir}/demo.json`;
const PID_DIR = CLUSTER ? `${stateDir}/cluster/run/services` : `${stateDir}/run/services`;
mkdirSync(PID_DIR, { recursive: true });
const pidFile = (label) => `${PID_DIR}/${label}.pid`;

const children = new Map();
/** Instances stopped on request (their exit is expected, not reported as a crash). */
const stoppedOnRequest = new Set();
let stopping = false;

function startService(service) {
  const logFile = `${logDir}/${service.label}.log`;
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    process.execPath,
    [service.script ?? `${root}services/${service.name}/dist/main.js`, ...(service.args ?? [])],
    {
      env: service.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Both streams feed one file: neither may end it when it closes first.
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.once('close', () => out.end());
  child.on('exit', (code, signal) => {
    children.delete(service.label);
    rmSync(pidFile(service.label), { force: true });
    if (!stopping && !stoppedOnRequest.has(service.label)) {
      console.error(`[framedeck] ${service.label} exited (${signal ?? code}); log: ${logFile}`);
    }
  });
  children.set(service.label, child);
  writeFileSync(pidFile(service.label), `${child.pid}\n`);
  return logFile;
}

/** SIGTERM, then SIGKILL if the graceful shutdown overruns; resolves once the process exited. */
function terminate(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

/** Refuses to start over another instance: its /healthz would pass for ours. */
async function assertPortsFree() {
  const taken = [];
  for (const s of [...INSTANCES, ...BALANCERS]) {
    const free = await new Promise((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(s.port, s.host, () => probe.close(() => resolve(true)));
    });
    if (!free) taken.push(`${s.label} (${s.host}:${s.port})`);
  }
  if (taken.length > 0) {
    throw new Error(`ports already in use: ${taken.join(', ')}. Is another \`npm start\` running?`);
  }
}

async function waitHealthy(service, logFile, deadlineMs = 60_000) {
  const url = `http://${service.host}:${service.port}/healthz`;
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (!children.has(service.label)) break;
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${service.label} did not become healthy at ${url}; log: ${logFile}`);
}

async function stopAll() {
  if (stopping) return;
  stopping = true;
  console.error('[framedeck] stopping services');
  await Promise.all([...children.values()].map(terminate));
}

/** One control line (see the top of this file); one at a time, in order. */
async function control(line, processes) {
  const [command, label] = line.trim().split(/\s+/);
  if (!command) return;
  const service = processes.find((s) => s.label === label);
  if (!service || !['stop', 'start', 'restart'].includes(command)) {
    console.log(
      `[framedeck] ${line.trim()} failed: expected stop|start|restart <label> (${processes.map((s) => s.label).join(', ')})`,
    );
    return;
  }
  try {
    if (command !== 'start') {
      stoppedOnRequest.add(label);
      const child = children.get(label);
      if (child) await terminate(child);
      console.log(`[framedeck] ${label} stopped`);
    }
    if (command !== 'stop') {
      if (children.has(label)) throw new Error('already running');
      stoppedOnRequest.delete(label);
      await waitHealthy(service, startService(service));
      console.log(`[framedeck] ${label} started (pid ${children.get(label).pid})`);
    }
  } catch (error) {
    console.log(`[framedeck] ${line.trim()} failed: ${error.message}`);
  }
}

/** Reads control lines from standard input once everything started (nothing happens if it is closed). */
function acceptControl(processes) {
  let queue = Promise.resolve();
  createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
    queue = queue.then(() => (stopping ? undefined : control(line, processes)));
  });
}

/** The demo tenant is created once and reused, so its keys stay valid across restarts. */
function demoTenant() {
  const file = DEMO_FILE;
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    if (saved.databaseUrl === (process.env.FRAMEDECK_POSTGRES_URL ?? 'default')) return { ...saved, reused: true };
  }
  const output = execFileSync(
    process.execPath,
    [`${root}services/cli/bin/framedeck.js`, 'bootstrap', '--plan', 'pro', '--json'],
    {
      env: process.env,
      encoding: 'utf8',
    },
  );
  const demo = { ...JSON.parse(output), databaseUrl: process.env.FRAMEDECK_POSTGRES_URL ?? 'default' };
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return { ...demo, reused: false };
}

/**
 * Makes every page of the demo project show real shapes: the simulated world's map and 30 days
 * of a live game (services/cli/src/commands/demo-seed.ts; tests seed the same way). Runs until
 * it succeeded once (recorded in demo.json), so an interrupted first start is completed by the
 * next one; the ci key it creates for the nightly runs is kept there too.
 */
async function seedDemo(demo, addresses) {
  if (demo.seeded) return;
  console.error(
    `[framedeck] seeding the demo project: map image and ${DEMO.days} days of ${DEMO.players} simulated players`,
  );
  const saveDemo = (fields) => {
    Object.assign(demo, fields);
    writeFileSync(DEMO_FILE, JSON.stringify({ ...demo, reused: undefined }, null, 2), { mode: 0o600 });
  };
  try {
    const seeding = await seedDemoProject(
      { projectId: demo.projectId, baseUrl: addresses.baseUrl, ingestUrl: addresses.ingestUrl, keys: demo.keys },
      { progress: (line) => console.error(line), onCiKey: (ci) => saveDemo({ keys: { ...demo.keys, ci } }) },
    );
    const { events, automatedEvents, seconds } = seeding.report;
    console.error(`[framedeck] demo seeded: ${events} events (${automatedEvents} of automated runs) in ${seconds} s`);
    saveDemo({ seeded: true });
  } catch (error) {
    // Not fatal: the services run; the next `npm start` tries again.
    console.error(`[framedeck] the demo project was not fully seeded (${error.message}); the next start retries`);
  }
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(0)));
process.on('SIGTERM', () => void stopAll().then(() => process.exit(0)));

try {
  await assertPortsFree();
  const processes = [...INSTANCES, ...BALANCERS];
  const logs = processes.map((s) => startService(s));
  await Promise.all(processes.map((s, i) => waitHealthy(s, logs[i])));
  const addresses = addressesSection(process.env);
  const lines = [
    '',
    'FrameDeck is running.',
    `  Dashboard      ${addresses.appOrigin}/`,
    `  API            ${addresses.baseUrl}/v1   (OpenAPI: ${addresses.baseUrl}/openapi.json)`,
    `  Ingest         ${addresses.ingestUrl}/v1/events`,
    ...INSTANCES.map(
      (s) =>
        `  ${s.label.padEnd(CLUSTER ? 24 : 17)}http://${s.host}:${s.port}/healthz   metrics http://${s.metrics.host}:${s.metrics.port}/metrics`,
    ),
    ...BALANCERS.map((s) => `  ${s.label.padEnd(24)}${s.host}:${s.port} → ${s.args.at(-1)}`),
    `  Logs           ${logDir}/`,
  ];
  if (process.argv.includes('--seed-demo')) {
    const demo = demoTenant();
    await seedDemo(demo, addresses);
    lines.push(
      '',
      `Demo tenant ${demo.reused ? `(reused from ${DEMO_FILE})` : '(created)'}: project "${demo.projectName}" ${demo.projectId}`,
      `  Sign in        ${demo.user.email} / ${demo.user.password}`,
      ...Object.entries(demo.keys).map(([preset, key]) => `  ${`${preset} key`.padEnd(17)}${key}`),
    );
  }
  lines.push('', 'Press Ctrl-C to stop (or type: restart <instance>).', '');
  console.log(lines.join('\n'));
  acceptControl(processes);
} catch (error) {
  console.error(`[framedeck] ${error.message}`);
  await stopAll();
  process.exit(1);
}
