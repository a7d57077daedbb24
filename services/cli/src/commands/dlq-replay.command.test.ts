import { describe, expect, it } from 'vitest';
import { parseLimit, parseSince } from './dlq-replay.command.js';

describe('dlq replay options', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('reads --since as an ISO time or an age', () => {
    expect(parseSince('2026-11-24T08:00:00Z', now)).toEqual(new Date('2026-11-24T08:00:00Z'));
    expect(parseSince('30m', now)).toEqual(new Date('2026-11-24T11:30:00Z'));
    expect(parseSince('7d', now)).toEqual(new Date('2026-11-17T12:00:00Z'));
    expect(parseSince(undefined, now)).toBeUndefined();
  });

  it.each(['yesterday', '12', '3w', '2026-13-45'])('refuses --since %s', (value) => {
    expect(() => parseSince(value, now)).toThrow(`--since ${value}:`);
  });

  it('reads --limit as a positive whole number', () => {
    expect(parseLimit('25')).toBe(25);
    expect(parseLimit(undefined)).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'ten']) expect(() => parseLimit(bad)).toThrow(`--limit ${bad}:`);
  });
});
