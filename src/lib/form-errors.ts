import type { z } from 'zod';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/**
 * The first message of each field, in the order the issues came (field order of the schema):
 * shown beside the fields, and joined under 'Validation Error' in the toast.
 */
export function firstErrorPerField(error: z.ZodError): { fields: FieldErrors; messages: string[] } {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in fields)) fields[key] = issue.message;
  }
  return { fields, messages: [...new Set(Object.values(fields).filter((m): m is string => !!m))] };
}

/** Server field errors ({ field: [messages] }) to one message per field. */
export function fromServerFieldErrors(fieldErrors: Record<string, string[] | undefined>): FieldErrors {
  const fields: FieldErrors = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    if (messages?.[0]) fields[key] = messages[0];
  }
  return fields;
}

/** Moves focus to the first invalid control of a form, so keyboard and screen-reader users land on it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
