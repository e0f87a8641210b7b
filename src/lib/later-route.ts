/**
 * Links to screens that later issues build (profiles /{username}, /explore, /create, /messages,
 * /settings). Their route files do not exist yet, so the typed router does not know the paths;
 * until they do, those links go through this cast (and show the not-found page when followed).
 * When a screen lands, replace `laterRoute('/explore')` with the typed `to="/explore"`.
 */
export function laterRoute(path: string): '/' {
  return path as '/';
}
