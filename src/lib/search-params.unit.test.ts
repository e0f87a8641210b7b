import { describe, expect, it } from 'vitest';
import { enumParam, searchTextParam, searchValidator, stringParam } from './search-params';

describe('the routes’ search validation', () => {
  it('reads a search text as trimmed text of at most 200 characters, numbers included, absent when empty', () => {
    expect(searchTextParam('  leo  ')).toBe('leo');
    expect(searchTextParam(123)).toBe('123');
    expect(searchTextParam('   ')).toBeUndefined();
    expect(searchTextParam({ a: 1 })).toBeUndefined();
    expect(searchTextParam('x'.repeat(250))).toBe('x'.repeat(200));
  });

  it('keeps only the named parameters, drops malformed ones and never throws', () => {
    const validator = searchValidator<{ tab?: 'a' | 'b'; token?: string }>({ tab: enumParam(['a', 'b'] as const), token: stringParam(5) });
    expect(validator.parse({ tab: 'b', token: 'abc', other: 'x' })).toEqual({ tab: 'b', token: 'abc' });
    const dropped = validator.parse({ tab: 'c', token: 'abcdef' });
    expect(dropped).toEqual({});
    expect(Object.keys(dropped)).toEqual([]);
    expect(validator.parse(null)).toEqual({});
  });
});
