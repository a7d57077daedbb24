import { describe, expect, it } from 'vitest';
import { isAllowedFunction } from './sql-policy.js';

describe('isAllowedFunction', () => {
  it.each(['count', 'COUNT', 'uniqExact', 'quantile', 'windowFunnel', 'retention', 'arrayJoin', 'toStartOfDay', 'if'])(
    'allows %s',
    (name) => expect(isAllowedFunction(name)).toBe(true),
  );

  it.each([
    'uniqExactIf',
    'sumArrayIf',
    'avgOrNull',
    'quantilesIf',
    'countDistinct',
    'groupArrayForEach',
    'sumMergeState',
  ])('allows the aggregate combinator form %s', (name) => expect(isAllowedFunction(name)).toBe(true));

  it.each([
    'dictGet',
    'dictGetString',
    'joinGet',
    'hasColumnInTable',
    'currentDatabase',
    'currentUser',
    'hostName',
    'version',
    'getSetting',
    'file',
    'url',
    'remote',
    'numbers',
    'in',
    'globalIn',
    'sleep',
    'sleepEachRow',
    'format',
    'timezone',
    'uptime',
    // a combinator suffix does not make a non-aggregate acceptable
    'dictGetIf',
    'sleepIf',
    'toStringIf',
  ])('refuses %s', (name) => expect(isAllowedFunction(name)).toBe(false));
});
