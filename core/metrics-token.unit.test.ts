import { describe, expect, it } from 'vitest';
import { hasMetricsToken } from './metrics-token';

describe('metrics gate', () => {
  it('takes only the configured bearer token, and nothing when none is configured', () => {
    const token = 'a'.repeat(40);
    expect(hasMetricsToken(`Bearer ${token}`, token)).toBe(true);
    expect(hasMetricsToken(`bearer ${token}`, token)).toBe(true);
    expect(hasMetricsToken(`Bearer ${token}x`, token)).toBe(false);
    expect(hasMetricsToken(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(hasMetricsToken(token, token)).toBe(false);
    expect(hasMetricsToken(`Basic ${token}`, token)).toBe(false);
    expect(hasMetricsToken(undefined, token)).toBe(false);
    expect(hasMetricsToken('Bearer ', token)).toBe(false);
    expect(hasMetricsToken('Bearer anything', undefined)).toBe(false);
  });
});
