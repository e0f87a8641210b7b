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

export const CREATE_PATH = '/create';
export const EDIT_PROFILE_PATH = '/settings/personal-info';
