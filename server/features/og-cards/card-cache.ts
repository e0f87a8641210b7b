/**
 * The cards this server copy has drawn, most recently used last (a Map keeps insertion order:
 * a hit moves its entry to the end, and the first entry is the one dropped). Each entry is one
 * profile's or post's current card with its version (card-model.ts cardVersion) and the public
 * data version it was last known current at (server/http/public-cache.queries.ts): while that
 * version has not moved, no write has touched anything a card shows, and the entry is served
 * without asking the database for the card's data again.
 */
export interface CachedCard {
  version: string;
  jpeg: Buffer;
  /** the public data version at which the card's data was last read and found unchanged */
  dataVersion: string | null;
}

/** 300 cards of 30-120 kB: at most some 35 MB. */
const MAX_CARDS = 300;

export function cardCache(max = MAX_CARDS) {
  const entries = new Map<string, CachedCard>();
  /** renders under way, by key and version: visitors asking for the same new card share one */
  const drawing = new Map<string, Promise<Buffer>>();
  return {
    get(key: string): CachedCard | undefined {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key: string, entry: CachedCard) {
      entries.delete(key);
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
    },
    delete(key: string) {
      entries.delete(key);
    },
    /** The card's bytes from a render under way for the same version, or from `draw` (then shared). */
    drawOnce(key: string, version: string, draw: () => Promise<Buffer>): { jpeg: Promise<Buffer>; shared: boolean } {
      const id = `${key}\n${version}`;
      const under = drawing.get(id);
      if (under) return { jpeg: under, shared: true };
      const jpeg = draw().finally(() => drawing.delete(id));
      drawing.set(id, jpeg);
      return { jpeg, shared: false };
    },
    get size() {
      return entries.size;
    },
  };
}
