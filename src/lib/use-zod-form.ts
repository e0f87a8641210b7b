import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type Path, type RegisterOptions, type SubmitHandler } from 'react-hook-form';
import type { z } from 'zod';
import { VALIDATION, type ToastText } from '../../common/texts';
import { fieldMessages, firstBadField, fromServerFieldErrors, messagesInOrder, type FieldMessages } from './form-errors';
import { joinMessages, notify } from './toast';
import { serverValidation, type ServerValidation } from './trpc';

/** A form is one object schema from common/: its keys are the fields, in the order they are shown. */
type FormSchema = z.ZodObject;

/** The spec's toast for refused values: 'Validation Error' over every message, one per line. */
export function validationErrorToast(messages: readonly string[]): ToastText {
  return { title: VALIDATION.validationErrorTitle, description: joinMessages(messages) };
}

interface ZodFormOptions<S extends FormSchema> {
  defaultValues: DefaultValues<z.input<S>>;
  /** The toast when the schema refuses the values (messages in field order); null shows the fields only. */
  invalidToast?: ((messages: string[]) => ToastText) | null;
}

/**
 * react-hook-form with the shared zod schema as its resolver: the submit handler receives the
 * parsed values (z.output), exactly what the procedure's input schema makes of them. Values are
 * checked on submit only, and editing a field clears its message until the next submit; a refusal
 * (the schema's or the server's) puts each message beside its field and focuses the first bad one.
 */
export function useZodForm<S extends FormSchema>(schema: S, { defaultValues, invalidToast = validationErrorToast }: ZodFormOptions<S>) {
  type Input = z.input<S>;
  type Name = Path<Input>;
  const form = useForm<Input, unknown, z.output<S>>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // ours: after the render that marks the fields invalid, so the field is read with its message
    shouldFocusError: false,
  });
  const names = Object.keys(schema.shape) as Name[];

  const focusFirst = (messages: FieldMessages<Name>) => {
    const name = firstBadField(names, messages);
    if (name) requestAnimationFrame(() => form.setFocus(name));
  };

  return {
    ...form,

    /** register() for a field; editing it clears its message. */
    field: (name: Name, options?: RegisterOptions<Input, Name>) =>
      form.register(name, {
        ...options,
        onChange: (event: unknown) => {
          form.clearErrors(name);
          options?.onChange?.(event);
        },
      }),

    /** The field's message, for FormField's `error`. */
    error: (name: Name): string | undefined => form.getFieldState(name, form.formState).error?.message,

    /** The form's onSubmit: `onValid` gets the parsed values; refused values are shown, toasted and focused. */
    submit: (onValid: SubmitHandler<z.output<S>>) =>
      form.handleSubmit(onValid, (errors) => {
        const messages = fieldMessages(names, errors);
        if (invalidToast) notify.error(invalidToast(messagesInOrder(names, messages)));
        focusFirst(messages);
      }),

    /**
     * The server's field errors (its validation block) beside the fields, the focus on the first;
     * the block for the caller's toast, or null when the answer had none.
     */
    showServerErrors: (error: unknown): ServerValidation | null => {
      const validation = serverValidation(error);
      if (!validation) return null;
      const messages = fromServerFieldErrors(names, validation.fieldErrors);
      for (const name of names) {
        const message = messages[name];
        if (message) form.setError(name, { type: 'server', message });
      }
      focusFirst(messages);
      return validation;
    },
  };
}
