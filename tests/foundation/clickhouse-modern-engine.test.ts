import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickhouseSection } from '@framedeck/config';
import { inheritedEnv, REPO_ROOT, serviceEnv, STATE_DIR } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import { isProcessAlive } from '../support/processes.js';

// The modern ClickHouse engine (26.x, clickhouse-local from libchdb.so) as infra/local runs
// it: under infra/local/clickhouse-modern.supervisor.mjs, which restarts it when it dies and
// stops it by KILL QUERY. These tests crash it on purpose, so they use a scratch database of
// their own and only ever signal the processes whose pid files the scripts wrote.
const run = promisify(execFile);
const env = inheritedEnv();
const HTTP_PORT = Number(env.FRAMEDECK_CLICKHOUSE_MODERN_HTTP_PORT ?? 8124);
const TCP_PORT = Number(env.FRAMEDECK_CLICKHOUSE_MODERN_TCP_PORT ?? 9001);
const SUPERVISOR_PID_FILE = `${STATE_DIR}/run/clickhouse-modern.pid`;
const ENGINE_PID_FILE = `${STATE_DIR}/run/clickhouse-modern.engine.pid`;
const SUPERVISOR_LOG = `${STATE_DIR}/logs/clickhouse-modern.stdout.log`;
const BACK_WITHIN_MS = 3_000;
const { admin } = clickhouseSection(serviceEnv());
const database = `framedeck_modern_engine_${Date.now().toString(36)}_${process.pid}`;

/**
 * One request on a connection of its own, closed after the answer: a pooled idle socket
 * would make the engine wait for it when the supervisor stops it (see test c).
 */
function http(path: string, body?: string, timeoutMs = 5_000): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: HTTP_PORT,
        path,
        method: body === undefined ? 'GET' : 'POST',
        agent: false,
        auth: `${admin.user}:${admin.password}`,
        headers: { Connection: 'close' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function query(sql: string): Promise<string> {
  const res = await http('/', sql);
  if (res.status !== 200) throw new Error(`ClickHouse ${res.status}: ${res.text}`);
  return res.text.trim();
}

const ping = () =>
  http('/ping', undefined, 1_000).then(
    (r) => r.status === 200 && r.text === 'Ok.\n',
    () => false,
  );

function pidFrom(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${file} holds no pid`);
  return pid;
}

const scripts = (script: 'up.sh' | 'down.sh') =>
  run('bash', [`${REPO_ROOT}infra/local/${script}`, 'clickhouse-modern'], { env, timeout: 120_000 });

/** Inserts a row and returns once the engine has acknowledged it (HTTP 200). */
async function acknowledged(key: string): Promise<void> {
  await query(`INSERT INTO ${database}.rows (key) VALUES ('${key}')`);
}

async function stillThere(key: string): Promise<number> {
  return Number(await query(`SELECT count() FROM ${database}.rows WHERE key = '${key}'`));
}

/** Waits until /ping answers; returns how long that took. */
async function backOnPing(since: number, timeoutMs: number, what: string): Promise<number> {
  await waitFor(ping, { timeoutMs, intervalMs: 25, what });
  return Date.now() - since;
}

beforeAll(async () => {
  if (!(await ping())) await scripts('up.sh');
  if (!existsSync(SUPERVISOR_PID_FILE) || !isProcessAlive(pidFrom(SUPERVISOR_PID_FILE))) {
    throw new Error(
      `the modern ClickHouse engine on port ${HTTP_PORT} was not started by infra/local (no live ${SUPERVISOR_PID_FILE}); ` +
        'these tests only crash an engine the scripts supervise',
    );
  }
  await waitFor(() => existsSync(ENGINE_PID_FILE), { timeoutMs: 10_000, what: 'the engine pid file' });
  await query(`CREATE DATABASE ${database}`);
  await query(`CREATE TABLE ${database}.rows (key String, at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY key`);
}, 180_000);

afterAll(async () => {
  if (!(await ping())) await scripts('up.sh');
  await query(`DROP DATABASE IF EXISTS ${database} SYNC`);
});

describe('the modern ClickHouse engine under its supervisor', () => {
  it(`is back within ${BACK_WITHIN_MS / 1000} s after kill -9 of the engine, with every acknowledged row`, async () => {
    const supervisor = pidFrom(SUPERVISOR_PID_FILE);
    const engine = pidFrom(ENGINE_PID_FILE);
    await acknowledged('before-kill-9');

    const killedAt = Date.now();
    process.kill(engine, 'SIGKILL');
    await waitFor(() => !isProcessAlive(engine), {
      timeoutMs: 5_000,
      intervalMs: 10,
      what: `engine pid ${engine} to die`,
    });
    const tookMs = await backOnPing(killedAt, BACK_WITHIN_MS, 'the restarted engine to answer /ping');

    expect(tookMs).toBeLessThanOrEqual(BACK_WITHIN_MS);
    expect(isProcessAlive(supervisor)).toBe(true); // the same supervisor restarted it
    expect(pidFrom(ENGINE_PID_FILE)).not.toBe(engine);
    expect(await stillThere('before-kill-9')).toBe(1);
  });

  it(`survives malformed bytes on the native port: back within ${BACK_WITHIN_MS / 1000} s if they kill it, no acknowledged row lost`, async () => {
    const engine = pidFrom(ENGINE_PID_FILE);
    await acknowledged('before-garbage');

    // Send and hang up at once (a client that gives up), as `printf 'garbage\n' | nc` does.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(TCP_PORT, '127.0.0.1', () => socket.write('garbage\n', () => socket.destroy()));
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
    // clickhouse-local dies a few seconds after such bytes (a broken pipe it does not catch);
    // clickhouse-server would not. Either way it must answer again.
    const diedAt = await waitFor(() => (isProcessAlive(engine) ? undefined : Date.now()), {
      timeoutMs: 15_000,
      intervalMs: 10,
      what: 'the engine to react',
    }).catch(() => undefined);
    if (diedAt !== undefined) {
      const tookMs = await backOnPing(diedAt, BACK_WITHIN_MS, 'the engine to answer /ping after the crash');
      expect(tookMs).toBeLessThanOrEqual(BACK_WITHIN_MS);
      expect(pidFrom(ENGINE_PID_FILE)).not.toBe(engine);
    }
    expect(await ping()).toBe(true);
    expect(await stillThere('before-garbage')).toBe(1);
    expect(await stillThere('before-kill-9')).toBe(1);
  });

  it('stops cleanly via KILL QUERY on down.sh, and up.sh brings it back with its data', async () => {
    await acknowledged('before-stop');
    const supervisor = pidFrom(SUPERVISOR_PID_FILE);
    const engine = pidFrom(ENGINE_PID_FILE);
    const logOffset = statSync(SUPERVISOR_LOG).size;

    await scripts('down.sh');
    expect(isProcessAlive(supervisor)).toBe(false);
    expect(isProcessAlive(engine)).toBe(false);
    expect(await ping()).toBe(false);
    const stopLog = readFileSync(SUPERVISOR_LOG).subarray(logOffset).toString('utf8');
    expect(stopLog).toMatch(/engine stopped cleanly via KILL QUERY in \d+ ms \(exit code 0\)/);

    await scripts('up.sh');
    expect(await ping()).toBe(true);
    expect(pidFrom(SUPERVISOR_PID_FILE)).not.toBe(supervisor);
    for (const key of ['before-kill-9', 'before-garbage', 'before-stop']) expect(await stillThere(key)).toBe(1);
  });
});

describe('the docker-compose ClickHouse files', () => {
  it('are accepted by the modern engine: both users log in and the sandbox limits are in force', async () => {
    // Merged into an image-shaped base config and run on 26.x, since no Docker engine runs here.
    const { stdout, stderr } = await run('bash', [`${REPO_ROOT}infra/docker/check-clickhouse-config.sh`], {
      env: inheritedEnv({ FRAMEDECK_DOCKER_CHECK_HTTP_PORT: '28125', FRAMEDECK_DOCKER_CHECK_TCP_PORT: '29002' }),
      timeout: 120_000,
    });
    expect(`${stdout}${stderr}`).toMatch(/docker ClickHouse config check passed on 2\d\./);
  });
});
