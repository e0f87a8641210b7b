/** "99.97%": the chance the trace is right, floored (never rounded up to a certainty it did not reach). */
export function confidencePercent(confidence: number): string {
  const hundredths = Math.floor(Math.max(0, Math.min(1, confidence)) * 10_000);
  return `${hundredths / 100}%`;
}

/** The first characters of the file's SHA-256, enough to tell two uploads apart by eye. */
export const shortHash = (sha256: string) => sha256.slice(0, 12);
