import { PROFILE_LIMITS } from '../../common/limits';

/**
 * The routes' search validation, as small plain functions rather than zod: validateSearch runs in
 * the router's own chunk, loaded on every first visit, and zod there would put ~24 kB (gzip) on
 * the landing page (issue 14 item 12, tests/e2e/bundle-budget.spec.ts). Malformed values are
 * dropped (undefined) rather than shown as an error page.
 */

/** A validator the router accepts (`validateSearch: { parse }`; it passes the parsed query string). */
export interface SearchValidator<T> {
  parse(search: unknown): T;
}

/**
 * A validator from one reader per parameter (T's keys are all optional): only the named
 * parameters are kept, and those read as undefined are left out.
 */
export function searchValidator<T extends object>(readers: { [K in keyof T]-?: (value: unknown) => T[K] }): SearchValidator<T> {
  return {
    parse(search) {
      const raw = (typeof search === 'object' && search !== null ? search : {}) as Record<string, unknown>;
      const out: Partial<T> = {};
      for (const key of Object.keys(readers) as (keyof T & string)[]) {
        const value = readers[key](raw[key]);
        if (value !== undefined) out[key] = value;
      }
      return out as T;
    },
  };
}

/**
 * A search box's text in the URL (?q=): trimmed, at most 200 characters, absent when empty. The
 * router reads `?q=123` typed by hand as a number, so numbers count as text.
 */
export function searchTextParam(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return String(value).trim().slice(0, PROFILE_LIMITS.searchMaxLength) || undefined;
}

/** One of `options` (a tab, a view), else absent. */
export function enumParam<const O extends readonly string[]>(options: O): (value: unknown) => O[number] | undefined {
  return (value) => (typeof value === 'string' && options.includes(value) ? value : undefined);
}

/** Any text up to `max` characters (a token, a comma-separated list), else absent. */
export function stringParam(max = Infinity): (value: unknown) => string | undefined {
  return (value) => (typeof value === 'string' && value.length <= max ? value : undefined);
}
