import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from './accounts.command.js';
import { parseSimulateOptions } from './simulate.command.js';

const PROJECT = '6f1c2a9e-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const KEY = `fd_${'k'.repeat(43)}`;
const config = (ingestKey?: string) =>
  ({ addresses: { ingestUrl: 'http://127.0.0.1:8081' }, simulate: { ingestKey } }) as Parameters<
    typeof parseSimulateOptions
  >[1];

function parse(values: Record<string, string>, ingestKey?: string) {
  const warnings: string[] = [];
  const options = parseSimulateOptions({ project: PROJECT, ...values }, config(ingestKey), (l) => warnings.push(l));
  return { apiKey: options.apiKey, warnings };
}

describe('framedeck simulate: where the ingest key comes from (never needed on the command line)', () => {
  it('reads the first line of --key-file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fd-key-')), 'ingest.key');
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    expect(parse({ 'key-file': file })).toEqual({ apiKey: KEY, warnings: [] });
  });

  it('takes FRAMEDECK_INGEST_KEY when no flag names a key', () => {
    expect(parse({}, KEY)).toEqual({ apiKey: KEY, warnings: [] });
  });

  it('still accepts --key, with a warning that ps shows it; a flag wins over the environment', () => {
    const { apiKey, warnings } = parse({ key: KEY }, 'fd_from_env');
    expect(apiKey).toBe(KEY);
    expect(warnings.join()).toMatch(/ps/);
  });

  it('refuses no key, an empty or missing key file, and both flags', () => {
    const empty = join(mkdtempSync(join(tmpdir(), 'fd-key-')), 'empty.key');
    writeFileSync(empty, '\n');
    const cases: Record<string, string>[] = [
      {},
      { 'key-file': empty },
      { 'key-file': '/nonexistent/key' },
      { 'key-file': empty, key: KEY },
    ];
    for (const values of cases) {
      expect(() => parse(values), JSON.stringify(values)).toThrow(UsageError);
    }
  });
});

describe('framedeck simulate --days: a live game instead of minutes of play', () => {
  const options = (values: Record<string, string>) =>
    parseSimulateOptions({ project: PROJECT, ...values }, config(KEY), () => {});

  it('simulates whole days (1–30, the oldest events ingest accepts) of a 300-player base by default', () => {
    expect(options({ days: '30' })).toMatchObject({ days: 30, minutes: 30 * 1_440, players: 300 });
    expect(options({})).toMatchObject({ days: undefined, minutes: 5, players: 20 });
    for (const days of ['0', '31', '2.5', 'x']) expect(() => options({ days }), days).toThrow(UsageError);
    expect(() => options({ days: '3', minutes: '5' })).toThrow(UsageError);
  });

  it('reads the ci key (automated runs) from --ci-key-file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fd-key-')), 'ci.key');
    writeFileSync(file, `fd_ci\n`, { mode: 0o600 });
    expect(options({ 'ci-key-file': file })).toMatchObject({ apiKey: KEY, ciKey: 'fd_ci' });
    expect(options({}).ciKey).toBeUndefined();
  });
});
