import { describe, expect, it } from 'vitest';
import { ExploreSearch, exploreSearchInput, formatCategories, parseCategories } from './explore-search';

describe('the Explore chips in the URL', () => {
  it('reads known categories in any case, once each, in the spec order', () => {
    expect(parseCategories('gaming,ART,Gaming, music ,Nope')).toEqual(['Art', 'Music', 'Gaming']);
    expect(parseCategories(undefined)).toEqual([]);
    expect(parseCategories('')).toEqual([]);
  });
  it('writes them back in the same order, and nothing for none', () => {
    expect(formatCategories(['Technology', 'Art'])).toBe('Art,Technology');
    expect(formatCategories([])).toBeUndefined();
    expect(parseCategories(formatCategories(['Music', 'Gaming']))).toEqual(['Music', 'Gaming']);
  });
  it('drops malformed search params instead of failing', () => {
    expect(ExploreSearch.parse({ q: { a: 1 }, categories: ['Art'] })).toEqual({ q: undefined, categories: undefined });
    expect(ExploreSearch.parse({ q: '  leo  ' })).toEqual({ q: 'leo' });
    expect(ExploreSearch.parse({ q: 123, categories: 'Art' })).toEqual({ q: '123', categories: 'Art' });
    expect(ExploreSearch.parse({ q: '   ' })).toEqual({ q: undefined });
  });
  it('asks for 8 posts, without an empty search', () => {
    expect(exploreSearchInput('', [])).toEqual({ q: undefined, categories: [], limit: 8 });
  });
});
