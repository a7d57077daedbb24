import { describe, expect, it } from 'vitest';
import { rewriteMapAccess } from './map-access.js';
import { scanSql } from './sql-lexer.js';

const rewrite = (sql: string) => {
  const scanned = scanSql(sql);
  return rewriteMapAccess(scanned.text, scanned.code);
};

describe('rewriteMapAccess', () => {
  it.each([
    ["SELECT attributes['ci.branch']", "SELECT attributes.value[indexOf(attributes.key, 'ci.branch')]"],
    ['SELECT metrics[k] > 1', 'SELECT metrics.value[indexOf(metrics.key, k)] > 1'],
    ["SELECT e.attributes ['a']", "SELECT e.attributes.value[indexOf(e.attributes.key, 'a')]"],
    [
      "SELECT metrics[attributes['k']]",
      "SELECT metrics.value[indexOf(metrics.key, attributes.value[indexOf(attributes.key, 'k')])]",
    ],
    ["SELECT attributes[']'], 1", "SELECT attributes.value[indexOf(attributes.key, ']')], 1"],
    ['SELECT attributes[f(1, [2])]', 'SELECT attributes.value[indexOf(attributes.key, f(1, [2]))]'],
  ])('%s', (sql, expected) => {
    expect(rewrite(sql)).toBe(expected);
  });

  it.each([
    'SELECT attributes.value[1], metrics.key[2]',
    "SELECT 'attributes[1]', `attributes`[1]",
    'SELECT my_attributes[1], x.y.attributes[1]',
    'SELECT attributes[1',
  ])('leaves %s as it is', (sql) => {
    expect(rewrite(sql)).toBe(scanSql(sql).text);
  });
});
