import { describe, expect, it } from 'vitest';
import { ConfigError, collectSections } from './env.js';
import { kafkaSection } from './kafka.section.js';
import { clickhouseSection, listenSection, postgresSection } from './sections.js';

describe('configuration', () => {
  it('uses the local-stack defaults when nothing is set', () => {
    expect(postgresSection({}).url).toBe('postgres://postgres:postgres@127.0.0.1:5432/framedeck');
    expect(kafkaSection({}).brokers).toEqual(['127.0.0.1:9092']);
    expect(listenSection({}, 'FRAMEDECK_API_PORT', 8080)).toEqual({
      host: '127.0.0.1',
      port: 8080,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
    });
  });

  it('coerces and validates typed values', () => {
    expect(kafkaSection({ FRAMEDECK_KAFKA_EVENTS_PARTITIONS: '8' }).eventsPartitions).toBe(8);
    expect(kafkaSection({ FRAMEDECK_KAFKA_BROKERS: 'a:1, b:2' }).brokers).toEqual(['a:1', 'b:2']);
    expect(listenSection({ FRAMEDECK_API_PORT: '9999' }, 'FRAMEDECK_API_PORT', 8080).port).toBe(9999);
  });

  it('treats an empty value as unset', () => {
    expect(listenSection({ FRAMEDECK_API_PORT: '' }, 'FRAMEDECK_API_PORT', 8080).port).toBe(8080);
  });

  it.each([
    ['FRAMEDECK_API_PORT', 'eighty'],
    ['FRAMEDECK_API_PORT', '70000'],
    ['FRAMEDECK_API_PORT', '-1'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => listenSection({ [name]: value }, 'FRAMEDECK_API_PORT', 8080)).toThrow(
      new RegExp(`${name}="${value}"`),
    );
  });

  it('defaults the ClickHouse URL from the engine, and refuses an unknown engine', () => {
    expect(clickhouseSection({}).url).toBe('http://127.0.0.1:8123');
    expect(clickhouseSection({ FRAMEDECK_CLICKHOUSE_ENGINE: 'modern' }).url).toBe('http://127.0.0.1:8124');
    expect(
      clickhouseSection({ FRAMEDECK_CLICKHOUSE_ENGINE: 'modern', FRAMEDECK_CLICKHOUSE_URL: 'https://ch.example:8443' })
        .url,
    ).toBe('https://ch.example:8443');
    expect(() => clickhouseSection({ FRAMEDECK_CLICKHOUSE_ENGINE: 'cloud' })).toThrow(/FRAMEDECK_CLICKHOUSE_ENGINE/);
  });

  it('rejects a database name that is not a plain identifier', () => {
    expect(() => clickhouseSection({ FRAMEDECK_CLICKHOUSE_DATABASE: 'x; DROP TABLE y' })).toThrow(ConfigError);
  });

  it('reports every bad variable of every section at once, and hides secrets', () => {
    let error: unknown;
    try {
      collectSections({
        kafka: () => kafkaSection({ FRAMEDECK_KAFKA_EVENTS_PARTITIONS: 'zero' }),
        postgres: () => postgresSection({ FRAMEDECK_POSTGRES_URL: 'not a url', FRAMEDECK_POSTGRES_POOL_MAX: '0' }),
        clickhouse: () => clickhouseSection({ FRAMEDECK_CLICKHOUSE_PASSWORD: '' }),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.split(/[=:]/)[0])).toEqual([
      'FRAMEDECK_KAFKA_EVENTS_PARTITIONS',
      'FRAMEDECK_POSTGRES_URL',
      'FRAMEDECK_POSTGRES_POOL_MAX',
    ]);
    expect(message).toContain('Invalid configuration');
  });

  it('never echoes a password embedded in a URL', () => {
    expect(() =>
      postgresSection({ FRAMEDECK_POSTGRES_URL: 'postgres://u:s3cret@host/db', FRAMEDECK_POSTGRES_POOL_MAX: 'x' }),
    ).toThrow(/^(?![\s\S]*s3cret)/);
  });

  it('returns frozen configuration', () => {
    const config = collectSections({ kafka: () => kafkaSection({}) });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.kafka.brokers)).toBe(true);
  });
});
