import { describe, expect, it } from 'vitest';
import { heatmapLink, type HeatmapPlace } from './dashboard-links.js';

// The page's own address builder: the CLI's links must be the ones the dashboard understands.
// NOTE: imported by a computed path so the Node type-check (tsconfig.json) does not take in
// the dashboard's browser sources, which resolve imports the bundler's way; vitest loads it.
const DASHBOARD_LINK_MODULE = ['..', '..', '..', 'dashboard', 'src', 'heatmap', 'heatmap-link.ts'].join('/');
const { heatmapLink: dashboardHeatmapLink } = (await import(DASHBOARD_LINK_MODULE)) as {
  heatmapLink: (projectId: string, place: HeatmapPlace) => string;
};

const ORIGIN = 'http://127.0.0.1:8080';
const PROJECT = '6f1d2b61-0a3b-4e0b-8f3e-2a7c7d1e4f52';

describe('heatmap links printed by the CLI', () => {
  it.each<[string, HeatmapPlace]>([
    [
      'a regressed cell',
      { mapId: 'bridge city', buildId: '1.5.0', cellSize: 25, days: 30, focus: { x: 512.5, y: -12.5 } },
    ],
    ['a period the page does not offer', { mapId: 'm', buildId: 'ci-7', cellSize: 10, days: 90 }],
    ['a cell size the page does not offer', { mapId: 'm', cellSize: 20, days: 7 }],
  ])('match the dashboard’s address for %s', (_, place) => {
    // The same page and the same parameters (their order carries no meaning).
    const parsed = (href: string) => {
      const url = new URL(href, ORIGIN);
      return { page: `${url.origin}${url.pathname}`, params: [...url.searchParams].sort() };
    };
    expect(parsed(heatmapLink(ORIGIN, PROJECT, place))).toEqual(parsed(dashboardHeatmapLink(PROJECT, place)));
  });
});
