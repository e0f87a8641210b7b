/** The URIs an HLS playlist lists, as a player fetches them: the EXT-X-MAP (init segment) first, then every URI line. */
export function urisOf(playlist: string): string[] {
  const map = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
  return [...(map ? [map] : []), ...playlist.split('\n').filter((l) => l !== '' && !l.startsWith('#'))];
}
