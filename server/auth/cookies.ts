import { parse, serialize } from 'cookie';
import type { ServerResponse } from 'node:http';
import { SESSION } from '../../common/limits';

/** The session token in a `Cookie` header (an HTTP request's or a socket handshake's), or null. */
export function sessionTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  return parse(cookieHeader)[SESSION.cookieName] || null;
}

export function appendSetCookie(res: ServerResponse, value: string) {
  const existing = res.getHeader('Set-Cookie');
  const list = Array.isArray(existing) ? existing : existing ? [String(existing)] : [];
  res.setHeader('Set-Cookie', [...list, value]);
}

export function setSessionCookie(res: ServerResponse, token: string, expiresAt: Date, secure: boolean) {
  appendSetCookie(
    res,
    serialize(SESSION.cookieName, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: expiresAt }),
  );
}

export function clearSessionCookie(res: ServerResponse, secure: boolean) {
  appendSetCookie(res, serialize(SESSION.cookieName, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }));
}
