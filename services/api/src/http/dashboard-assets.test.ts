import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, dashboardAssets } from './dashboard-assets.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head></html>';

describe('dashboardAssets', () => {
  let dir: string;
  let server: Server;
  let origin: string;
  const get = (path: string, init: RequestInit = {}) => fetch(origin + path, init);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
    const app = express();
    app.get('/api/v1/thing', (_req, res) => void res.json({ from: 'api' }));
    app.use(dashboardAssets({ dir, logger: pino({ level: 'silent' }) }));
    app.use((_req, res) => void res.status(404).json({ status: 404 }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers client routes with index.html, never cached, under a strict CSP', async () => {
    for (const path of ['/', '/projects', '/projects/7d3c/heatmap?mapId=dust']) {
      const res = await get(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    }
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    expect(DASHBOARD_CSP).not.toContain('unsafe-eval');
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets for a year (immutable) and other files for an hour', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    const icon = await get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('gives a missing asset or file a 404, not the page (a stale chunk must not become HTML)', async () => {
    for (const path of ['/assets/index-old999.js', '/robots.txt']) {
      const res = await get(path, { headers: { accept: 'text/html,*/*' } });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toBe(INDEX);
    }
  });

  it('leaves /api, /oauth, /.well-known and health paths to their owners', async () => {
    expect(await (await get('/api/v1/thing')).json()).toEqual({ from: 'api' });
    for (const path of ['/api/v1/nope', '/oauth/authorize', '/.well-known/oauth-authorization-server', '/healthz']) {
      const res = await get(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toBe(INDEX);
    }
  });

  it('serves the page only to GET/HEAD navigations that accept HTML', async () => {
    expect((await get('/projects', { method: 'POST' })).status).toBe(404);
    expect((await get('/projects', { headers: { accept: 'application/json' } })).status).toBe(404);
    const head = await get('/projects', { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(head.status).toBe(200);
  });

  it('says plainly when the dashboard is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dashboard-missing-'));
    const app = express().use(dashboardAssets({ dir: empty, logger: pino({ level: 'silent' }) }));
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/projects`, {
        headers: { accept: 'text/html' },
      });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
    } finally {
      await new Promise((resolve) => other.close(resolve));
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
