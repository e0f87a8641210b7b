import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Inter from @fontsource/inter, in its .woff files (satori's font reader reads woff; the woff2
 * files are the browser's). The subsets cover Latin and its extensions, Greek, Cyrillic and
 * Vietnamese, each a family of its own: satori looks a glyph up in the element's families in
 * order (a family of several files with one name would only ever use its first).
 */
const SUBSETS = ['latin', 'latin-ext', 'greek', 'cyrillic', 'vietnamese'] as const;
const WEIGHTS = [400, 700, 800] as const;

const familyOf = (subset: string) => (subset === 'latin' ? 'Inter' : `Inter ${subset}`);

/** The card's font-family: every subset, Latin first. */
export const FONT_FAMILY = SUBSETS.map((subset) => `'${familyOf(subset)}'`).join(', ');

export interface FontFile {
  name: string;
  weight: (typeof WEIGHTS)[number];
  path: string;
}

export function fontFiles(): FontFile[] {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files');
  return SUBSETS.flatMap((subset) => WEIGHTS.map((weight) => ({ name: familyOf(subset), weight, path: path.join(dir, `inter-${subset}-${weight}-normal.woff`) })));
}
