// Runs every FrameDeck service as a child process of `npm start`, waits until each answers
// /healthz, seeds the demo tenant on first start, prints URLs and keys, and stops the
// services on Ctrl-C. Service logs (JSON lines) go to .state/logs/<service>.log.
//
//   node infra/local/run-services.mjs [--seed-demo]
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { addressesSection, listenSection } from '../../libs/config/dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const stateDir = process.env.FRAMEDECK_STATE_DIR || `${root}.state`;
const logDir = `${stateDir}/logs`;
mkdirSync(logDir, { recursive: true });

const SERVICES = [
  { name: 'api', portVariable: 'FRAMEDECK_API_PORT', defaultPort: 8080 },
  { name: 'ingest-gateway', portVariable: 'FRAMEDECK_INGEST_PORT', defaultPort: 8081 },
  { name: 'events-consumer', portVariable: 'FRAMEDECK_CONSUMER_HEALTH_PORT', defaultPort: 8082 },
  { name: 'alert-evaluator', portVariable: 'FRAMEDECK_EVALUATOR_HEALTH_PORT', defaultPort: 8083 },
].map((s) => ({ ...s, ...listenSection(process.env, s.portVariable, s.defaultPort) }));

const children = new Map();
let stopping = false;

function startService(service) {
  const logFile = `${logDir}/${service.name}.log`;
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [`${root}services/${service.name}/dist/main.js`], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (!stopping) console.error(`[framedeck] ${service.name} exited (${signal ?? code}); log: ${logFile}`);
  });
  children.set(service.name, child);
  return logFile;
}

async function waitHealthy(service, logFile, deadlineMs = 60_000) {
  const url = `http://${service.host}:${service.port}/healthz`;
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (!children.has(service.name)) break;
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${service.name} did not become healthy at ${url}; log: ${logFile}`);
}

async function stopAll() {
  if (stopping) return;
  stopping = true;
  console.error('[framedeck] stopping services');
  const exits = [...children.values()].map(
    (child) =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  );
  await Promise.all(exits);
}

/** The demo tenant is created once and reused, so its keys stay valid across restarts. */
function demoTenant() {
  const file = `${stateDir}/demo.json`;
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
 * Fills a newly created demo project with simulated play (15 minutes of 40 players on the map
 * `dust_valley`, sent through the real ingest gateway), so the dashboard opens on real data.
 */
function seedDemoTelemetry(demo) {
  console.error('[framedeck] seeding the demo project with simulated telemetry');
  const args = [
    'simulate',
    '--project',
    demo.projectId,
    '--key',
    demo.keys.ingest,
    '--players',
    '40',
    '--minutes',
    '15',
  ];
  try {
    execFileSync(process.execPath, [`${root}services/cli/bin/framedeck.js`, ...args, '--map-id', 'dust_valley'], {
      env: process.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    // Not fatal: the services run; the data can be sent again by hand.
    console.error(`[framedeck] demo telemetry was not sent; retry with: npx framedeck ${args.join(' ')}`);
  }
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(0)));
process.on('SIGTERM', () => void stopAll().then(() => process.exit(0)));

try {
  const logs = SERVICES.map((s) => startService(s));
  await Promise.all(SERVICES.map((s, i) => waitHealthy(s, logs[i])));
  const addresses = addressesSection(process.env);
  const lines = [
    '',
    'FrameDeck is running.',
    `  Dashboard      ${addresses.appOrigin}/`,
    `  API            ${addresses.baseUrl}/v1   (OpenAPI: ${addresses.baseUrl}/openapi.json)`,
    `  Ingest         ${addresses.ingestUrl}/v1/events`,
    ...SERVICES.map((s) => `  ${s.name.padEnd(17)}http://${s.host}:${s.port}/healthz`),
    `  Logs           ${logDir}/`,
  ];
  if (process.argv.includes('--seed-demo')) {
    const demo = demoTenant();
    if (!demo.reused) seedDemoTelemetry(demo);
    lines.push(
      '',
      `Demo tenant ${demo.reused ? '(reused from .state/demo.json)' : '(created)'}: project "${demo.projectName}" ${demo.projectId}`,
      `  Sign in        ${demo.user.email} / ${demo.user.password}`,
      ...Object.entries(demo.keys).map(([preset, key]) => `  ${`${preset} key`.padEnd(17)}${key}`),
    );
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  console.log(lines.join('\n'));
} catch (error) {
  console.error(`[framedeck] ${error.message}`);
  await stopAll();
  process.exit(1);
}
