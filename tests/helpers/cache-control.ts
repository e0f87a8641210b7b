/**
 * How long a `Cache-Control` header lets a shared cache (a CDN, a proxy) go on serving a response
 * without the origin's say, per RFC 9111: its lifetime there (`s-maxage`, else `max-age`; none is
 * a lifetime the cache may guess, so no bound), and past it only if it must then ask the origin
 * (`must-revalidate`, `proxy-revalidate`): otherwise it may serve the response stale (while it
 * asks, or when the origin does not answer), with no bound either. `private` and `no-store`
 * answers are never kept by a shared cache (0).
 */
export function sharedCacheBoundS(header: string | null): number {
  const directives = new Map<string, string | true>();
  for (const part of (header ?? '').split(',')) {
    const [name, value] = part.trim().toLowerCase().split('=') as [string, string | undefined];
    if (name) directives.set(name, value ?? true);
  }
  if (directives.has('private') || directives.has('no-store')) return 0;
  const seconds = (name: string) => {
    const value = directives.get(name);
    return typeof value === 'string' ? Number(value) : null;
  };
  const lifetime = directives.has('no-cache') ? 0 : (seconds('s-maxage') ?? seconds('max-age') ?? Infinity);
  const mustAsk = directives.has('no-cache') || directives.has('must-revalidate') || directives.has('proxy-revalidate');
  return mustAsk ? lifetime : Infinity;
}
