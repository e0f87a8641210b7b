/**
 * Addresses of screens later issues build (the typed router does not know them yet, so links to
 * them go through `laterRoute`): one place that spells them.
 */
export function subscribePath(username: string): string {
  return `/${encodeURIComponent(username)}/subscribe`;
}

export function conversationPath(username: string): string {
  return `/messages/${encodeURIComponent(username)}`;
}

/** The Premium upgrade's payment screen (spec part 2: 'the premium upgrade payment screen'). */
export const PREMIUM_UPGRADE_PATH = '/subscribe';
export const CREATE_PATH = '/create';
export const EDIT_PROFILE_PATH = '/settings/personal-info';
