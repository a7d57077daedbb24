// Supervisor of the modern ClickHouse engine (clickhouse-local from libchdb.so, run by the
// launcher that infra/local/install.sh builds from infra/clickhouse-modern/launcher.c).
// Started by `up.sh clickhouse-modern`, stopped by `down.sh clickhouse-modern` (SIGTERM).
// Plain Node, no dependencies.
//
//   node clickhouse-modern.supervisor.mjs --launcher BIN --library LIBCHDB --config XML
//        --data DIR --http-port N --pid-file FILE --engine-pid-file FILE
//   environment: FRAMEDECK_CLICKHOUSE_PASSWORD (framedeck_admin's password, for KILL QUERY)
//
// What it does, and why (clickhouse-local is not clickhouse-server):
// - Runs the engine in its own process group (detached), so signals meant for the engine
//   (or sent by it: its SYSTEM SHUTDOWN signals the whole group) never reach this process.
// - Before every start, empties the data folder of the `system` database. clickhouse-local
//   keeps `system` in memory but writes system.query_log's data to disk; after a restart it
//   finds that folder and fails to flush the log (TABLE_ALREADY_EXISTS, every 7.5 s). The
//   previous run's query log is lost; nothing else lives there.
// - Restarts the engine within a second when it dies unexpectedly (it crashes on bytes it
//   cannot parse), logging the exit status; backs off when it keeps dying soon after start.
//   If the very first start fails (a config error), it gives up and exits 1, so up.sh
//   reports the error at once instead of after its timeout.
// - Restarts it too when it stays alive but /ping has not answered for WATCHDOG_MS.
// - On SIGTERM/SIGINT stops it the one clean way it has: KILL QUERY of its keep-alive query
//   (SIGTERM would kill it without any shutdown sequence, SIGINT is ignored), through the
//   HTTP port as framedeck_admin; waits for it to exit; after STOP_TIMEOUT_MS kills its
//   process group instead.
// - Writes its own pid file (what down.sh signals) and the engine's (for tests and
//   debugging); the launcher dies with this process (PR_SET_PDEATHSIG) if it is SIGKILLed.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    launcher: { type: 'string' },
    library: { type: 'string' },
    config: { type: 'string' },
    data: { type: 'string' },
    'http-port': { type: 'string' },
    'pid-file': { type: 'string' },
    'engine-pid-file': { type: 'string' },
    'admin-user': { type: 'string', default: 'framedeck_admin' },
  },
});
for (const name of ['launcher', 'library', 'config', 'data', 'http-port', 'pid-file', 'engine-pid-file']) {
  if (!args[name]) fail(`missing --${name}`);
}

const HTTP = `http://127.0.0.1:${args['http-port']}`;
const ADMIN_AUTH = `Basic ${Buffer.from(`${args['admin-user']}:${process.env.FRAMEDECK_CLICKHOUSE_PASSWORD ?? ''}`).toString('base64')}`;
const KEEPALIVE_ID = 'framedeck-keepalive';
// Runs until killed; wakes once a second. It runs as the passwordless `default` user, which
// is why infra/clickhouse-modern/users.d grants that user exactly what these need.
// The sleep's value is aggregated: under count() of a subquery 26.x leaves the unused
// sleepEachRow out and counts system.numbers flat out — measured two threads at 100 % of a core
// together for as long as the engine ran.
const ENGINE_QUERY =
  'SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; ' +
  'SELECT max(sleepEachRow(1)) FROM system.numbers SETTINGS max_block_size = 1, max_threads = 1';

const START_TIMEOUT_MS = 60_000; // until /ping answers after a start
const HEALTHY_AFTER_MS = 10_000; // a run this long resets the crash-loop back-off
const MAX_BACKOFF_MS = 30_000;
const WATCHDOG_MS = 20_000; // alive but /ping silent this long: restart it
const STOP_TIMEOUT_MS = 15_000;

let engine; // { child, startedAt, healthyAt, exited: Promise<{code, signal}> }
let everHealthy = false;
let quickDeaths = 0; // consecutive runs that died before HEALTHY_AFTER_MS
let stopping = false;
let wakeUp = () => {};

function log(message) {
  process.stdout.write(`${new Date().toISOString()} [clickhouse-modern supervisor ${process.pid}] ${message}\n`);
}

/** Exits 1, leaving our pid file: up.sh's wait sees a pid file whose process is gone and reports it. */
function fail(message) {
  log(`ERROR: ${message}`);
  exit(1, { keepPidFile: true });
}

const sleep = (ms) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wakeUp = () => {
      clearTimeout(timer);
      resolve();
    };
  });

/**
 * One HTTP request on a connection of its own, closed after the answer: an idle keep-alive
 * connection of ours would hold the engine's exit after KILL QUERY for seconds (it waits for
 * open connections). Resolves with { status, body }; rejects on network errors and timeouts.
 */
function request(path, { body, headers = {}, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${HTTP}${path}`,
      { method: body === undefined ? 'GET' : 'POST', agent: false, headers: { ...headers, Connection: 'close' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function ping() {
  try {
    const res = await request('/ping', { timeoutMs: 2_000 });
    return res.status === 200 && res.body === 'Ok.\n';
  } catch {
    return false;
  }
}

/** The query_log fix: nothing in `system` outlives a run of clickhouse-local but its data folders. */
function clearSystemDatabaseFolder() {
  const dir = `${args.data}/data/system`;
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) rmSync(`${dir}/${entry}`, { recursive: true, force: true });
}

function startEngine() {
  clearSystemDatabaseFolder();
  const child = spawn(
    args.launcher,
    [args.library, `--config-file=${args.config}`, `--query_id=${KEEPALIVE_ID}`, '--query', ENGINE_QUERY],
    {
      detached: true, // its own session and process group
      stdio: ['ignore', 'inherit', 'inherit'], // the engine's console goes to our log
      // Our environment (configs may read from_env) plus the pid launcher.c checks.
      env: { ...process.env, FRAMEDECK_SUPERVISOR_PID: String(process.pid) },
    },
  );
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      log(`cannot run ${args.launcher}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
  });
  engine = { child, startedAt: Date.now(), healthyAt: undefined, exited };
  if (child.pid) writeFileSync(args['engine-pid-file'], `${child.pid}\n`);
  log(`engine started (pid ${child.pid})`);
  exited.then(() => wakeUp());
  return engine;
}

function killGroup(run, signal) {
  try {
    process.kill(-run.child.pid, signal);
  } catch {
    // already gone
  }
}

function describeExit({ code, signal }) {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** Runs one engine until it exits (or is restarted by the watchdog); resolves with how it ended. */
async function runOnce() {
  const run = startEngine();
  let done = false;
  run.exited.then(() => (done = true));

  // Until it answers /ping.
  while (!done && !stopping && run.healthyAt === undefined) {
    if (await ping()) {
      run.healthyAt = Date.now();
      everHealthy = true;
      log(`engine answers on ${HTTP} (${run.healthyAt - run.startedAt} ms after start)`);
      break;
    }
    if (Date.now() - run.startedAt > START_TIMEOUT_MS) {
      log(`engine did not answer /ping within ${START_TIMEOUT_MS / 1000} s: killing its process group`);
      killGroup(run, 'SIGKILL');
      break;
    }
    await Promise.race([run.exited, new Promise((r) => setTimeout(r, 100))]);
  }

  // While it runs: the watchdog.
  let silentSince;
  while (!done && !stopping) {
    await Promise.race([run.exited, sleep(2_000)]);
    if (done || stopping) break;
    if (await ping()) {
      silentSince = undefined;
    } else {
      silentSince ??= Date.now();
      if (Date.now() - silentSince >= WATCHDOG_MS) {
        log(`engine alive but /ping silent for ${WATCHDOG_MS / 1000} s: killing its process group`);
        killGroup(run, 'SIGKILL');
        break;
      }
    }
  }
  return run;
}

async function supervise() {
  while (!stopping) {
    const run = await runOnce();
    if (stopping) return; // stop() handles the running engine
    const status = await run.exited;
    const upMs = Date.now() - run.startedAt;
    try {
      unlinkSync(args['engine-pid-file']);
    } catch {
      // not there
    }
    if (stopping) return;
    if (!everHealthy) {
      fail(`engine exited (${describeExit(status)}) before it ever answered /ping: giving up (see above)`);
    }
    quickDeaths = upMs < HEALTHY_AFTER_MS ? quickDeaths + 1 : 0;
    // Restart at once twice; then 0.5 s, 1 s, 2 s, ... up to 30 s while it keeps dying young.
    const delay = quickDeaths <= 2 ? 0 : Math.min(500 * 2 ** (quickDeaths - 3), MAX_BACKOFF_MS);
    log(
      `engine (pid ${run.child.pid}) exited unexpectedly (${describeExit(status)}) after ${(upMs / 1000).toFixed(1)} s; ` +
        (delay ? `restarting in ${delay} ms (${quickDeaths} quick exits in a row)` : 'restarting now'),
    );
    if (delay) await sleep(delay);
  }
}

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  wakeUp();
  const run = engine;
  if (!run || run.child.exitCode !== null || run.child.signalCode !== null) {
    log(`${signal}: no engine running; exiting`);
    return exit(0);
  }
  log(`${signal}: stopping the engine (pid ${run.child.pid}) via KILL QUERY of its keep-alive query`);
  const began = Date.now();
  let killed = false;
  // A few tries: the engine may still be starting (its port not open yet).
  while (!killed && Date.now() - began < STOP_TIMEOUT_MS / 2 && run.child.exitCode === null) {
    try {
      const res = await request('/', {
        headers: { Authorization: ADMIN_AUTH },
        body: `KILL QUERY WHERE query_id = '${KEEPALIVE_ID}' ASYNC`,
        timeoutMs: 3_000,
      });
      if (res.status === 200 && res.body.includes(KEEPALIVE_ID)) killed = true;
      else if (res.status !== 200) log(`KILL QUERY answered ${res.status}: ${res.body.trim().slice(0, 300)}`);
    } catch (error) {
      log(`KILL QUERY failed: ${error.message}`);
    }
    if (!killed) await Promise.race([run.exited, new Promise((r) => setTimeout(r, 500))]);
  }
  const timeout = new Promise((r) =>
    setTimeout(() => r(undefined), Math.max(0, STOP_TIMEOUT_MS - (Date.now() - began))),
  );
  const status = await Promise.race([run.exited, timeout]);
  const ms = Date.now() - began;
  if (status && killed && status.code === 0) {
    log(`engine stopped cleanly via KILL QUERY in ${ms} ms (${describeExit(status)})`);
    return exit(0);
  }
  if (status && killed) {
    // Like clickhouse-server, it waits shutdown_wait_unfinished (5 s) for open client
    // connections (an idle keep-alive socket is enough), then exits without the tables'
    // shutdown ("Will shutdown forcefully"). Acknowledged inserts are on disk either way.
    log(
      `engine stopped via KILL QUERY in ${ms} ms but not cleanly (${describeExit(status)}; ` +
        `see clickhouse-modern.log: "Will shutdown forcefully" means clients kept connections open)`,
    );
    return exit(0);
  }
  if (status) {
    log(`engine exited (${describeExit(status)}) in ${ms} ms, but not via KILL QUERY`);
    return exit(1);
  }
  log(`engine still running ${ms} ms after the stop request: SIGKILL to its process group`);
  killGroup(run, 'SIGKILL');
  await run.exited;
  return exit(1);
}

function exit(code, { keepPidFile = false } = {}) {
  for (const file of [args['engine-pid-file'], keepPidFile ? undefined : args['pid-file']]) {
    if (!file) continue;
    try {
      // Only our own pid file: a newer supervisor may have replaced it.
      if (file === args['engine-pid-file'] || readFileSync(file, 'utf8').trim() === String(process.pid)) {
        unlinkSync(file);
      }
    } catch {
      // not there
    }
  }
  process.exit(code);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGHUP', () => {}); // the terminal that started up.sh may go away

writeFileSync(args['pid-file'], `${process.pid}\n`);
log(`supervising ${args.launcher} (library ${args.library}, config ${args.config})`);
supervise().catch((error) => fail(error.stack ?? String(error)));
