import { renderWorldMapPng, WORLD } from '@framedeck/sender';
import { simulate, type SimulateReport } from './simulate.command.js';

/**
 * The demo project `npm start` seeds (infra/local/run-services.mjs), and tests seed the same
 * way: the simulated world's map uploaded through the API, as a studio would, then 30 days of
 * a live game (simulateLiveGame) sent through the real ingest gateway — players with the
 * ingest key, the nightly automated runs with a key of the ci preset, so they are automated
 * runs. Size measured in docs/operations.md.
 */
export const DEMO = { mapId: 'dust_valley', mapName: 'Dust Valley', days: 30, players: 300, seed: 1 } as const;

export type DemoProject = {
  projectId: string;
  /** The API's base URL, ending in /api (as `framedeck bootstrap` prints it). */
  baseUrl: string;
  ingestUrl: string;
  /** The bootstrap keys; `ci` when an earlier, interrupted seeding created it already. */
  keys: { ingest: string; full: string; ci?: string | undefined };
};

export type DemoSeeding = { ciKey: string; report: SimulateReport };

export type DemoSeedOptions = {
  /** The player base (default DEMO.players); tests seed fewer for speed. */
  players?: number;
  progress?: (line: string) => void;
  /** Called with a newly created ci key before any event is sent, so a retry can reuse it. */
  onCiKey?: (key: string) => void;
  /** Where the demo's days end instead of now: tests pin it to get the same events in every run. */
  endTimeMs?: number;
};

/** Uploads the demo map, creates a ci key unless `project.keys.ci` is given, and sends the demo's events. */
export async function seedDemoProject(project: DemoProject, options: DemoSeedOptions = {}): Promise<DemoSeeding> {
  await uploadDemoMap(project);
  let ciKey = project.keys.ci;
  if (!ciKey) {
    ciKey = await createCiKey(project);
    options.onCiKey?.(ciKey);
  }
  const report = await simulate(
    {
      projectId: project.projectId,
      apiKey: project.keys.ingest,
      ciKey,
      players: options.players ?? DEMO.players,
      minutes: DEMO.days * 1_440,
      days: DEMO.days,
      ingestUrl: project.ingestUrl,
      mapId: DEMO.mapId,
      rate: undefined,
      seed: DEMO.seed,
      endTimeMs: options.endTimeMs,
    },
    options.progress,
  );
  return { ciKey, report };
}

async function uploadDemoMap(project: DemoProject): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([renderWorldMapPng(1000)], { type: 'image/png' }), `${DEMO.mapId}.png`);
  form.set('name', DEMO.mapName);
  form.set('mapId', DEMO.mapId);
  form.set('worldMinX', String(WORLD.minX));
  form.set('worldMinY', String(WORLD.minY));
  form.set('worldMaxX', String(WORLD.maxX));
  form.set('worldMaxY', String(WORLD.maxY));
  await apiCall(project, '/v1/maps/upload', { method: 'POST', body: form });
}

/** A key of the ci preset (events:write + events:synthetic); the full key may create it (data:admin). */
async function createCiKey(project: DemoProject): Promise<string> {
  const answer = await apiCall(project, `/v1/projects/${project.projectId}/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ preset: 'ci', name: 'demo nightly runs' }),
  });
  return (answer as { data: { value: string } }).data.value;
}

async function apiCall(project: DemoProject, path: string, init: RequestInit): Promise<unknown> {
  const res = await fetch(`${project.baseUrl}${path}`, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      'x-api-key': project.keys.full,
      'x-project-id': project.projectId,
    },
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`${init.method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}
