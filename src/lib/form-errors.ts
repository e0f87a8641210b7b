/** One message per field, as shown beside it (FormField's `error`). */
export type FieldMessages<K extends string = string> = Partial<Record<K, string>>;

/**
 * The message of each of the form's fields that has one, from react-hook-form's errors (or
 * anything shaped like them).
 */
export function fieldMessages<K extends string>(
  names: readonly K[],
  errors: Partial<Record<string, { message?: unknown } | undefined>>,
): FieldMessages<K> {
  const messages: FieldMessages<K> = {};
  for (const name of names) {
    const message = errors[name]?.message;
    if (typeof message === 'string' && message) messages[name] = message;
  }
  return messages;
}

/**
 * The first message of each of the form's fields in the server's `validation.fieldErrors`
 * (server/trpc/init.ts). Keys the form has no field for (a reset token, a whole list) are left
 * out: there is nothing to show them beside, and the toast says them.
 */
export function fromServerFieldErrors<K extends string>(
  names: readonly K[],
  fieldErrors: Readonly<Record<string, readonly string[] | undefined>>,
): FieldMessages<K> {
  const messages: FieldMessages<K> = {};
  for (const name of names) {
    const message = fieldErrors[name]?.[0];
    if (message) messages[name] = message;
  }
  return messages;
}

/** The field the focus goes to: the first bad one in the form's order, not in the order the errors came. */
export function firstBadField<K extends string>(names: readonly K[], messages: FieldMessages<K>): K | undefined {
  return names.find((name) => messages[name]);
}

/** The messages in the form's order, each once: the lines of the 'Validation Error' toast. */
export function messagesInOrder<K extends string>(names: readonly K[], messages: FieldMessages<K>): string[] {
  return [...new Set(names.flatMap((name) => messages[name] ?? []))];
}
