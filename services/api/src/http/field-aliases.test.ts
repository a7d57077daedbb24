import { describe, expect, it } from 'vitest';
import { applyAliases, describeAliases } from './field-aliases.js';

describe('field aliases', () => {
  it('renames an alias to its canonical name, nested paths included', () => {
    expect(applyAliases({ window: '3600', steps: 'a,b' }, { window: 'windowSeconds' }, 'query')).toEqual({
      windowSeconds: '3600',
      steps: 'a,b',
    });
    expect(
      applyAliases(
        { name: 'PC', fpsGood: '60', fps: { warn: 30 } },
        { fpsGood: 'fps.good', memoryGood: 'memoryMb.good' },
        'body',
      ),
    ).toEqual({ name: 'PC', fps: { good: '60', warn: 30 } });
  });

  it('renames members of each element of a list', () => {
    const aliases = { 'entries[].contentType': 'entries[].type', 'entries[].contentId': 'entries[].key' };
    expect(
      applyAliases(
        {
          entries: [
            { contentType: 'map', contentId: 'm1' },
            { type: 'event', key: 'e' },
          ],
        },
        aliases,
        'body',
      ),
    ).toEqual({
      entries: [
        { type: 'map', key: 'm1' },
        { type: 'event', key: 'e' },
      ],
    });
  });

  it('refuses an alias sent together with its canonical field (400), and leaves the input untouched', () => {
    const input = { window: '60', windowSeconds: '60' };
    expect(() => applyAliases(input, { window: 'windowSeconds' }, 'query')).toThrow(
      /query.window: an alias of query.windowSeconds/,
    );
    expect(() => applyAliases({ fpsGood: 1, fps: { good: 2 } }, { fpsGood: 'fps.good' }, 'body')).toThrow(/alias/);
    expect(() => applyAliases({ fpsGood: 1, fps: 7 }, { fpsGood: 'fps.good' }, 'body')).toThrow(/alias/);
    expect(input).toEqual({ window: '60', windowSeconds: '60' });
  });

  it('passes anything but an object through', () => {
    expect(applyAliases([1], { a: 'b' }, 'body')).toEqual([1]);
    expect(applyAliases(undefined, { a: 'b' }, 'body')).toBeUndefined();
  });

  it('describes the aliases for the OpenAPI document', () => {
    expect(describeAliases({ query: { window: 'windowSeconds' } })).toContain('query `window` = `windowSeconds`');
    expect(describeAliases(undefined)).toBeUndefined();
  });
});
