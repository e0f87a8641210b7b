import { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { describe, expect, it } from 'vitest';
import { trpc } from '../../lib/trpc';
import { holdsCreator } from './entitlement';

const post = (id: string, creatorId: string) => ({ id, creator: { id: creatorId } });

/**
 * When a fan's subscription to one creator starts or lapses, only the cached feeds, posts and
 * profile that show that creator are refetched: the rest of the app keeps its data.
 */
describe('which queries an entitlement change refreshes', () => {
  it('picks the lists, posts and profile of that creator, and nothing else', () => {
    const client = new QueryClient();
    const feedKey = [...getQueryKey(trpc.posts.feed, { limit: 5 }, 'infinite')];
    const exploreKey = [...getQueryKey(trpc.explore.search, { q: 'x' }, 'infinite')];
    const mayaPostKey = [...getQueryKey(trpc.posts.byId, { id: 'p1' }, 'query')];
    const otherPostKey = [...getQueryKey(trpc.posts.byId, { id: 'p2' }, 'query')];
    const mayaProfileKey = [...getQueryKey(trpc.profiles.byUsername, { username: 'maya' }, 'query')];
    const otherProfileKey = [...getQueryKey(trpc.profiles.byUsername, { username: 'ava' }, 'query')];
    const unrelatedKey = [...getQueryKey(trpc.messages.unreadCount, undefined, 'query')];

    client.setQueryData(feedKey, { pages: [{ items: [post('p0', 'ava')] }, { items: [post('p1', 'maya')] }], pageParams: [null, 'c'] });
    client.setQueryData(exploreKey, { pages: [{ items: [post('p2', 'ava')] }], pageParams: [null] });
    client.setQueryData(mayaPostKey, post('p1', 'maya'));
    client.setQueryData(otherPostKey, post('p2', 'ava'));
    client.setQueryData(mayaProfileKey, { id: 'maya', username: 'maya' });
    client.setQueryData(otherProfileKey, { id: 'ava', username: 'ava' });
    // an unrelated query whose data happens to carry the same id
    client.setQueryData(unrelatedKey, { id: 'maya' });

    const picked = client
      .getQueryCache()
      .findAll({ predicate: (query) => holdsCreator(query, 'maya') })
      .map((query) => JSON.stringify(query.queryKey));
    expect(picked.sort()).toEqual([feedKey, mayaPostKey, mayaProfileKey].map((key) => JSON.stringify(key)).sort());
  });
});
