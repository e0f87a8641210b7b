import { PROFILE_LIMITS } from './limits';

/**
 * Links on a profile: the custom links' and social links' rules, shared by the Links tab's forms,
 * the server's input schemas and the client's hrefs. Only http(s) addresses ever come out.
 */

export const SOCIAL_KINDS = ['twitter', 'instagram', 'youtube', 'website'] as const;
export type SocialKind = (typeof SOCIAL_KINDS)[number];
/** the social links whose value is a username, not an address */
export const SOCIAL_HANDLE_KINDS = ['twitter', 'instagram'] as const;
export type SocialHandleKind = (typeof SOCIAL_HANDLE_KINDS)[number];

const HTTP = /^https?:\/\//i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** `example.com:8080/x` starts like a scheme but is a host and port */
const HOST_AND_PORT = /^[^/?#:@]+:\d+(?:[/?#]|$)/;
const HANDLE = new RegExp(`^[A-Za-z0-9_.]{1,${PROFILE_LIMITS.socialHandleMaxLength}}$`);
const HANDLE_URL: Record<SocialHandleKind, RegExp> = {
  twitter: /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:twitter\.com|x\.com)\/@?([^/?#]+)\/?(?:[?#].*)?$/i,
  instagram: /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/@?([^/?#]+)\/?(?:[?#].*)?$/i,
};

const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * An address to store or open: trimmed, with https:// put in front when it has no scheme (the
 * spec: 'a value without http gets https:// prefixed'). Null when it is not an http(s) address
 * with a real host name: other schemes (javascript:, data:, mailto:, ftp:), spaces, user:password@.
 */
export function normalizeWebUrl(raw: string): string | null {
  const value = raw.trim();
  if (!value || value.length > PROFILE_LIMITS.urlMaxLength || /\s/.test(value) || hasControlCharacter(value)) return null;
  let candidate: string;
  if (HTTP.test(value)) candidate = value;
  else if (SCHEME.test(value) && !HOST_AND_PORT.test(value)) return null;
  else candidate = `https://${value}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
  return candidate;
}

/**
 * A twitter or instagram username as stored: trimmed, without a leading @, also taken from a
 * pasted profile address (https://x.com/name, instagram.com/name/). '' for an empty value (which
 * removes the link); null when it is not a username (letters, digits, dots, underscores, ≤ 30).
 */
export function normalizeSocialHandle(kind: SocialHandleKind, raw: string): string | null {
  let value = raw.trim();
  if (!value) return '';
  const fromUrl = HANDLE_URL[kind].exec(value);
  if (fromUrl) value = fromUrl[1]!;
  else if (HTTP.test(value)) return null;
  value = value.replace(/^@+/, '');
  return HANDLE.test(value) ? value : null;
}

/**
 * The address a social link opens: twitter and instagram usernames become their profile pages;
 * youtube and website values open as they are, with https:// in front when they have no scheme.
 * Null for an empty value or anything that would not be an http(s) address.
 */
export function socialLinkHref(kind: SocialKind, value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (kind === 'twitter' || kind === 'instagram') {
    if (HTTP.test(v)) return normalizeWebUrl(v);
    const handle = normalizeSocialHandle(kind, v);
    if (!handle) return null;
    return kind === 'twitter' ? `https://x.com/${handle}` : `https://www.instagram.com/${handle}/`;
  }
  return normalizeWebUrl(v);
}
