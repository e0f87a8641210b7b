import { describe, expect, it } from 'vitest';
import { isLocalRequest, routeLabel } from './metrics';

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

  it('counts only unproxied loopback requests as local', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as never;
    expect(isLocalRequest(req('127.0.0.1'))).toBe(true);
    expect(isLocalRequest(req('::1'))).toBe(true);
    expect(isLocalRequest(req('::ffff:127.0.0.1'))).toBe(true);
    expect(isLocalRequest(req('10.0.0.5'))).toBe(false);
    expect(isLocalRequest(req('127.0.0.1', { 'x-forwarded-for': '203.0.113.1' }))).toBe(false);
    expect(isLocalRequest(req('127.0.0.1', { forwarded: 'for=203.0.113.1' }))).toBe(false);
  });
});
