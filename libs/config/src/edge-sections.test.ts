import { describe, expect, it } from 'vitest';
import { ConfigError } from './env.js';
import { metricsSection, trustedProxiesSection } from './sections.js';

describe('trusted proxies and metrics settings', () => {
  it('trusts no proxy by default and accepts IPs, CIDRs and the named ranges', () => {
    expect(trustedProxiesSection({}).trustedProxies).toEqual([]);
    expect(
      trustedProxiesSection({ FRAMEDECK_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1 ,fd00::/8,loopback' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8', 'loopback']);
  });

  it('refuses entries that are not addresses or ranges', () => {
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::1/129', '*']) {
      expect(() => trustedProxiesSection({ FRAMEDECK_TRUSTED_PROXIES: bad })).toThrow(ConfigError);
    }
  });

  it('binds metrics to loopback by default and refuses another address without a token', () => {
    expect(metricsSection({}, 'FRAMEDECK_X_METRICS_PORT', 9999)).toEqual({
      host: '127.0.0.1',
      port: 9999,
      token: undefined,
    });
    expect(() => metricsSection({ FRAMEDECK_METRICS_HOST: '0.0.0.0' }, 'FRAMEDECK_X_METRICS_PORT', 9999)).toThrow(
      /needs FRAMEDECK_METRICS_TOKEN/,
    );
    const token = 'a-long-enough-scrape-token';
    expect(metricsSection({ FRAMEDECK_METRICS_HOST: '0.0.0.0', FRAMEDECK_METRICS_TOKEN: token }, 'P', 1).token).toBe(
      token,
    );
  });
});
