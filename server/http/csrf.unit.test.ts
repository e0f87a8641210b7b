import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, requestOrigin } from './csrf';

const config = { appUrl: 'https://app.example', NODE_ENV: 'production' as const, TRUST_PROXY: 0 };
const req = (host: string | undefined, opts: { tls?: boolean; proto?: string } = {}) => ({
  headers: { ...(host ? { host } : {}), ...(opts.proto ? { 'x-forwarded-proto': opts.proto } : {}) },
  socket: { encrypted: opts.tls } as never,
});

describe('isAllowedOrigin', () => {
  it("takes APP_URL's origin, scheme included", () => {
    expect(isAllowedOrigin('https://app.example', req('other.host'), config)).toBe(true);
    expect(isAllowedOrigin('http://app.example', req('other.host'), config)).toBe(false);
    expect(isAllowedOrigin('https://app.example:8443', req('other.host'), config)).toBe(false);
  });

  it('takes the origin the request was addressed to only with the same scheme', () => {
    expect(isAllowedOrigin('http://10.0.0.5:3000', req('10.0.0.5:3000'), config)).toBe(true);
    expect(isAllowedOrigin('https://10.0.0.5:3000', req('10.0.0.5:3000'), config)).toBe(false);
    expect(isAllowedOrigin('https://10.0.0.5:3000', req('10.0.0.5:3000', { tls: true }), config)).toBe(true);
    expect(isAllowedOrigin('http://10.0.0.5:3000', req('10.0.0.5:3000', { tls: true }), config)).toBe(false);
    expect(isAllowedOrigin('http://10.0.0.5:3001', req('10.0.0.5:3000'), config)).toBe(false);
    expect(isAllowedOrigin('http://10.0.0.5', req('10.0.0.5:80'), config)).toBe(true);
  });

  it('believes X-Forwarded-Proto only from a trusted proxy', () => {
    const proxied = req('10.0.0.5', { proto: 'https' });
    expect(isAllowedOrigin('https://10.0.0.5', proxied, config)).toBe(false);
    expect(isAllowedOrigin('https://10.0.0.5', proxied, { ...config, TRUST_PROXY: 1 })).toBe(true);
    expect(isAllowedOrigin('http://10.0.0.5', proxied, { ...config, TRUST_PROXY: 1 })).toBe(false);
    expect(requestOrigin(req('h', { proto: 'https, http' }), 1)).toBe('https://h');
    expect(requestOrigin(req('h', { proto: 'gopher' }), 1)).toBeNull();
  });

  it('refuses a missing, null or malformed Origin, and the dev server outside development', () => {
    expect(isAllowedOrigin(undefined, req('10.0.0.5'), config)).toBe(false);
    expect(isAllowedOrigin('null', req('10.0.0.5'), config)).toBe(false);
    expect(isAllowedOrigin('not a url', req('10.0.0.5'), config)).toBe(false);
    expect(isAllowedOrigin('http://localhost:5173', req('10.0.0.5'), config)).toBe(false);
    expect(isAllowedOrigin('http://localhost:5173', req('10.0.0.5'), { ...config, NODE_ENV: 'development' })).toBe(true);
    expect(isAllowedOrigin('https://localhost:5173', req('10.0.0.5'), { ...config, NODE_ENV: 'development' })).toBe(false);
  });
});
