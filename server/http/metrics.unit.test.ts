import { describe, expect, it } from 'vitest';
import { hasMetricsToken, routeLabel } from './metrics';

describe('metrics labels and gate', () => {
  const known = (name: string) => name === 'posts.feed';
  it('labels requests by route pattern, never by raw URL', () => {
    expect(routeLabel('/trpc/posts.feed?input=x', known)).toBe('/trpc/posts.feed');
    expect(routeLabel('/trpc/posts.feed,posts.byId', known)).toBe('/trpc (batch)');
    expect(routeLabel('/trpc/made.up.name', known)).toBe('/trpc (unknown)');
    expect(routeLabel('/media/abc/web?download=1', known)).toBe('/media/:postId/:variant');
    expect(routeLabel('/uploads', known)).toBe('/uploads');
    expect(routeLabel('/uploads/0123456789abcdef0123456789abcdef', known)).toBe('/uploads/:id');
    expect(routeLabel('/admin/queues/api/queues', known)).toBe('/admin/queues');
    expect(routeLabel('/some/spa/page', known)).toBe('other');
  });

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
