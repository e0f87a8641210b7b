/**
 * Links to screens that later issues build (/{username}/subscribe, /subscribe, /create,
 * /messages, /settings). Their route files do not exist yet, so the typed router does not know
 * the paths; until they do, those links go through this cast (and show the not-found page when
 * followed). When a screen lands, replace `laterRoute('/create')` with the typed `to="/create"`.
 */
export function laterRoute(path: string): '/' {
  return path as '/';
}
