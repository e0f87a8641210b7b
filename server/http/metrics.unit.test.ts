import { describe, expect, it } from 'vitest';
import { routeLabel } from './metrics';

describe('metrics labels', () => {
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
});
