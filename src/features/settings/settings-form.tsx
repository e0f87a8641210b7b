import type { ReactNode } from 'react';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';

/** Save Changes, 'Saving...' while the save runs (spec part 2 §2). */
export function SaveChangesButton({ pending }: { pending: boolean }) {
  return (
    <Button type="submit" size="lg" disabled={pending} aria-busy={pending || undefined}>
      {pending ? SETTINGS_TEXTS.saving : SETTINGS_TEXTS.saveChanges}
    </Button>
  );
}

/**
 * A settings screen's form: its fields, then Save Changes. `onSave` saves (and updates the cached
 * settings) and returns the server's message, shown as a success toast; a failure shows `failed`.
 */
export function SettingsForm({
  label,
  pending,
  onSave,
  failed,
  toastId,
  children,
}: {
  label: string;
  pending: boolean;
  onSave: () => Promise<{ message: string }>;
  failed: string | ((error: unknown) => string);
  /** a form that also saves on change gives its toasts one id: a save replaces the last one's toast */
  toastId?: string;
  children: ReactNode;
}) {
  const submit = async () => {
    try {
      const result = await onSave();
      notify.success({ title: result.message }, { id: toastId });
    } catch (error) {
      notify.error({ title: 'Error', description: typeof failed === 'string' ? failed : failed(error) }, { id: toastId });
    }
  };

  return (
    <form
      aria-label={label}
      className="flex flex-col gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {children}
      <div className="flex justify-end">
        <SaveChangesButton pending={pending} />
      </div>
    </form>
  );
}
