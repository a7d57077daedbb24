import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Response } from 'express';
import type { Logger } from '@framedeck/logging';

/**
 * Where `npm run build` puts the dashboard (services/dashboard/dist). NOTE: this module sits at
 * the same depth in src/ and dist/ (…/api/{src,dist}/http/), so one relative path serves both the
 * built service and tests that import the sources.
 */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));

/**
 * The dashboard's Content-Security-Policy: only this origin's scripts, styles, images and API;
 * no inline script or style element, no eval, no framing, no plugins, no <base> hijack. React
 * sets element styles through the CSSOM, which style-src does not restrict.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

// Paths that belong to other parts of the origin: never answered with the dashboard's page.
const NOT_DASHBOARD = /^\/(api|oauth|\.well-known|healthz|readyz)(\/|$)/;
const FILE_LIKE = /\.[A-Za-z0-9]+$/;
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export type DashboardAssetsOptions = { dir?: string; logger: Logger };

/**
 * Serves the dashboard single-page app at the origin's root:
 * - /assets/* (content-hashed by Vite): cached for a year, immutable; a missing one is a 404,
 *   never the page (a stale chunk answered with HTML would break the app with a MIME error);
 * - other files of dist/ (favicon): cached for an hour;
 * - any other GET/HEAD that accepts HTML (client routes such as /projects/…/heatmap): index.html,
 *   revalidated on every load (no-cache) so a deploy is picked up at once.
 * Everything else falls through (to the 404 problem).
 */
export function dashboardAssets(options: DashboardAssetsOptions): RequestHandler {
  const dir = options.dir ?? DEFAULT_DASHBOARD_DIR;
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) {
    options.logger.warn({ dir }, 'dashboard not built (run `npm run build`): the origin serves no dashboard');
  }

  const assets = express.static(join(dir, 'assets'), {
    index: false,
    fallthrough: false,
    immutable: true,
    maxAge: ONE_YEAR_SECONDS * 1000,
    setHeaders: (res) => setSecurityHeaders(res),
  });
  const rootFiles = express.static(dir, {
    index: false,
    maxAge: 3600 * 1000,
    setHeaders: (res) => setSecurityHeaders(res),
  });

  const router = express.Router();
  router.use('/assets', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    assets(req, res, (error?: unknown) => {
      // serve-static answers a missing file with a 404 error: send it as a plain 404.
      if (error && (error as { status?: number }).status === 404) return void res.status(404).end();
      next(error);
    });
  });
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/index.html') return sendIndex(res, indexPath, next);
    rootFiles(req, res, () => {
      // A missing file (/robots.txt) is a 404, not the page; client routes have no extension.
      if (FILE_LIKE.test(req.path) || !req.accepts('html')) return next();
      sendIndex(res, indexPath, next);
    });
  });
  return (req, res, next) => (NOT_DASHBOARD.test(req.path) ? next() : router(req, res, next));
}

/**
 * NOTE: read on every page load (a small file, in the OS cache): a rebuilt dashboard is served
 * without restarting the API, and there is no stale copy to invalidate.
 */
function sendIndex(res: Response, indexPath: string, next: (error?: unknown) => void): void {
  readFile(indexPath).then(
    (html) => {
      setSecurityHeaders(res);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    },
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') return next(error);
      res
        .status(503)
        .type('text/plain')
        .send('The dashboard is not built. Run `npm run build`, then reload this page.\n');
    },
  );
}

function setSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}
