/** The longest name a mail's subject or body carries. */
export const MAIL_NAME_MAX = 40;

const URL_LIKE = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S*/gi;
const ADDRESS_LIKE = /\S*@\S*/g;
// a dot between two name characters reads as a domain (evil.com, evil . com is left alone)
const DOMAIN_LIKE = /\S*[\p{L}\p{N}_-][.。．｡][\p{L}\p{N}_-]\S*/gu;

/**
 * A user's display name as our mail may carry it: anything that reads like a link or an address
 * (URLs, www., domain names, e-mail addresses, @handles) taken out, whitespace folded, at most
 * MAIL_NAME_MAX characters; 'Someone' when nothing is left.
 */
export function nameForMail(displayName: string): string {
  const cleaned = displayName
    .normalize('NFKC')
    .replace(URL_LIKE, ' ')
    .replace(ADDRESS_LIKE, ' ')
    .replace(DOMAIN_LIKE, ' ')
    .replace(/[\s\p{C}]+/gu, ' ')
    .trim();
  if (!cleaned) return 'Someone';
  const chars = [...cleaned];
  return chars.length <= MAIL_NAME_MAX ? cleaned : `${chars.slice(0, MAIL_NAME_MAX - 1).join('').trimEnd()}…`;
}
