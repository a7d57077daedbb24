import { describe, expect, it } from 'vitest';
import { matchPath } from './route-match';
import { safeNext } from './safe-next';

describe('matchPath', () => {
  it('extracts parameters and refuses other shapes', () => {
    expect(matchPath('/projects/:projectId/maps', '/projects/p%201/maps')).toEqual({ projectId: 'p 1' });
    expect(matchPath('/projects/:projectId', '/projects/p1/maps')).toBeUndefined();
    expect(matchPath('/projects/:projectId/maps', '/projects/p1/keys')).toBeUndefined();
    expect(matchPath('/projects/:projectId', '/projects/%E0%A4%A')).toBeUndefined();
  });
});

describe('safeNext (after sign-in)', () => {
  it('keeps same-origin paths', () => {
    expect(safeNext('/projects/p1/heatmap?mapId=a')).toBe('/projects/p1/heatmap?mapId=a');
  });

  it('refuses anything that could leave the origin', () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '',
      null,
    ]) {
      expect(safeNext(next)).toBe('/');
    }
  });
});
