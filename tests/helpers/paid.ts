/** A one-off purchase's answer when the test expects it written now (the built-in provider, or a card that went through). */
export function paid<T extends { kind: string }>(result: T): Extract<T, { kind: 'paid' }> {
  if (result.kind !== 'paid') throw new Error(`expected a paid result, got ${JSON.stringify(result)}`);
  return result as Extract<T, { kind: 'paid' }>;
}
