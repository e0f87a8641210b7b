import { useId, type ReactNode } from 'react';
import { Label } from './label';

interface FieldRenderProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
  invalid: boolean;
}

interface FormFieldProps {
  label: ReactNode;
  /** The first message is shown under the field and announced through aria-describedby. */
  error?: string;
  hint?: ReactNode;
  /** Right-aligned beside the label (e.g. a "Forgot password?" link). */
  aside?: ReactNode;
  children: (field: FieldRenderProps) => ReactNode;
}

/** Label + control + hint/error, wired for assistive technology. */
export function FormField({ label, error, hint, aside, children }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, invalid: !!error })}
      {hint && !error ? (
        <p id={hintId} className="text-xs text-subtle">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
