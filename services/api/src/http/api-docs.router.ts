import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router, type RequestHandler } from 'express';

const UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Only these files of swagger-ui-dist are served (not its demo page or source maps). */
const UI_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'];

// Relative URLs: the page lives at {base_url}/docs, so "docs/…" and "openapi.json" resolve
// under {base_url} whatever origin or path prefix the API is served from.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>FrameDeck API</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-ui-standalone-preset.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/**
 * {base_url}/openapi.json and an interactive page at {base_url}/docs, served from the
 * swagger-ui-dist package: no CDN, works offline. `guard` runs first (identification and the
 * rate limit, so these answers carry the rate-limit headers too).
 */
export function apiDocsRouter(openApiDocument: object, guard: RequestHandler[]): Router {
  const router = Router();
  const json = JSON.stringify(openApiDocument);
  router.get('/openapi.json', ...guard, (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', ...guard, (req, res) => {
    // "/docs/" would make the page's relative URLs resolve one level too deep.
    if (req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, '../docs');
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', ...guard, (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  const assets = express.static(UI_DIR, { index: false, fallthrough: true, maxAge: '1h' });
  router.get('/docs/:asset', ...guard, (req, res, next) => {
    if (!UI_ASSETS.includes(String(req.params.asset))) return next();
    req.url = `/${req.params.asset}`;
    assets(req, res, next);
  });
  return router;
}
