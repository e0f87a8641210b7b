/**
 * The characters the card's fonts draw (card-fonts.ts: Inter's Latin, Latin Extended, Greek,
 * Cyrillic and Vietnamese subsets, their punctuation, currency and letter-like symbols). Anything
 * else (emoji, CJK, other scripts) would be drawn as an empty box: it is left out instead.
 */
const UNDRAWABLE = /[^\u0020-\u007E\u00A0-\u045F\u0490\u0491\u04B0\u04B1\u1D00-\u1DBF\u1E00-\u1EFF\u2000-\u206F\u20A0-\u20C0\u2100-\u215F\u2190-\u2199\u2212\u2215\u2C60-\u2C7F\uA720-\uA7FF]/gu;

/** The text as the card draws it: one line, without what its fonts cannot draw; '' when nothing is left. */
export function drawable(text: string | null | undefined): string {
  return (text ?? '').replace(UNDRAWABLE, ' ').replace(/\s+/g, ' ').trim();
}
