import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { WATERMARK_POSITIONS, type WatermarkPosition } from '../../../common/enums';
import { MediaSettingsInput, WATERMARK_TEXT_MAX_LENGTH, type MediaSettingsDto } from '../../../common/media-settings';
import { MEDIA_SETTINGS_TEXTS } from '../../../common/media-settings-texts';
import { Loaded } from '../../components/load-states';
import { Button, buttonClasses } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc, type CurrentUser } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';

const POSITION_LABELS: Record<WatermarkPosition, string> = {
  center: 'Center',
  'top-left': 'Top left',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  'bottom-right': 'Bottom right',
};

/** Where each position's dot sits in the little frame of the radio card. */
const DOT_PLACE: Record<WatermarkPosition, string> = {
  center: 'top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2',
  'top-left': 'top-1 left-1',
  'top-right': 'top-1 right-1',
  'bottom-left': 'bottom-1 left-1',
  'bottom-right': 'bottom-1 right-1',
};

const toForm = (settings: MediaSettingsDto) => ({
  watermarkEnabled: settings.watermarkEnabled,
  watermarkText: settings.watermarkText ?? '',
  watermarkPosition: settings.watermarkPosition,
  markPaidPictures: settings.markPaidPictures,
});

/**
 * /settings/media (spec part 2 §2, §3, §5, §8, §9): the watermark toggle; when on, the custom
 * text (empty: @username) and one of the five positions; Save Changes ('Saving...') →
 * 'Media settings saved successfully.'. Errors: 'Failed to load media settings.', 'Failed to
 * save media settings.', 'You must be logged in to save settings.'. Only creators save (the
 * server says so too); others are told how to become one.
 */
export function MediaSettingsForm({ user }: { user: CurrentUser }) {
  const settings = trpc.mediaSettings.get.useQuery(undefined, { retry: 1 });
  // 'Failed to load media settings.' is also a toast, once per failure (its id). The fields mount
  // once the settings are here: the form starts from them, and later refetches do not overwrite edits.
  return (
    <Loaded
      query={settings}
      loading="Loading media settings"
      failed={MEDIA_SETTINGS_TEXTS.loadFailed}
      toastId="media-settings-load"
      placeholderClassName="gap-6"
      skeleton={
        <>
          <Skeleton className="h-20 w-full rounded-card" />
          <Skeleton className="h-56 w-full rounded-card" />
        </>
      }
    >
      {(data) => <MediaSettingsFields user={user} initial={data} />}
    </Loaded>
  );
}

function MediaSettingsFields({ user, initial }: { user: CurrentUser; initial: MediaSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.mediaSettings.save.useMutation();
  const form = useZodForm(MediaSettingsInput, {
    defaultValues: toForm(initial),
    // what the server answers for the same text: 'Error' and the field's message
    invalidToast: (messages) => ({ title: 'Error', description: messages[0] ?? MEDIA_SETTINGS_TEXTS.saveFailed }),
  });
  const positionsId = useId();

  const onSubmit = form.submit(async (values) => {
    try {
      const result = await save.mutateAsync(values);
      utils.mediaSettings.get.setData(undefined, result.settings);
      form.reset(toForm(result.settings));
      notify.success({ title: MEDIA_SETTINGS_TEXTS.saved });
    } catch (error) {
      const textError = form.showServerErrors(error)?.fieldErrors.watermarkText?.[0];
      const description =
        errorCode(error) === 'UNAUTHORIZED'
          ? MEDIA_SETTINGS_TEXTS.signInRequired
          : errorCode(error) === 'FORBIDDEN' && isServerError(error)
            ? error.message
            : (textError ?? MEDIA_SETTINGS_TEXTS.saveFailed);
      notify.error({ title: 'Error', description });
    }
  });

  const canSave = user.isCreator;
  const enabled = form.watch('watermarkEnabled');
  const selectedPosition = form.watch('watermarkPosition');
  const markBuyers = form.watch('markPaidPictures') ?? false;

  return (
    <form aria-label="Media settings" className="flex flex-col gap-6" onSubmit={onSubmit}>
      {!canSave ? (
        <p className="rounded-card border border-border bg-surface-raised px-4 py-3 text-sm text-muted">
          Watermarks are added to the media creators upload.{' '}
          <Link to="/create" className="font-medium text-violet-300 underline-offset-4 hover:underline">
            Become a creator
          </Link>{' '}
          to use them.
        </p>
      ) : null}

      <div className="flex items-center justify-between gap-4 rounded-card border border-border bg-surface px-4 py-4">
        <div className="flex flex-col">
          <label htmlFor={`${positionsId}-enabled`} className="font-medium text-foreground">
            Watermark
          </label>
          <p id={`${positionsId}-enabled-hint`} className="text-sm text-subtle">
            Add a watermark to the images and videos you upload.
          </p>
        </div>
        <Switch
          id={`${positionsId}-enabled`}
          aria-describedby={`${positionsId}-enabled-hint`}
          checked={enabled}
          disabled={!canSave}
          onCheckedChange={(on) => form.setValue('watermarkEnabled', on)}
        />
      </div>

      {enabled ? (
        <div className="flex flex-col gap-6 rounded-card border border-border bg-surface p-4 md:p-5">
          <FormField
            label="Watermark text"
            error={form.error('watermarkText')}
            hint={`Leave it empty to use your username (@${user.username}). At most ${WATERMARK_TEXT_MAX_LENGTH} characters.`}
          >
            {(field) => (
              <Input
                {...field}
                {...form.field('watermarkText')}
                maxLength={WATERMARK_TEXT_MAX_LENGTH}
                disabled={!canSave}
                placeholder={`@${user.username}`}
                autoComplete="off"
              />
            )}
          </FormField>

          <fieldset className="flex flex-col gap-2" disabled={!canSave}>
            <legend className="mb-2 text-sm font-medium text-foreground">Position</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {WATERMARK_POSITIONS.map((position) => {
                const checked = selectedPosition === position;
                return (
                  <label
                    key={position}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-xl border px-3 py-2.5 text-sm transition-colors',
                      'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent',
                      checked ? 'border-accent bg-accent-soft text-foreground' : 'border-border text-muted hover:border-border-strong hover:text-foreground',
                    )}
                  >
                    <input type="radio" {...form.field('watermarkPosition')} value={position} className="sr-only" />
                    <span aria-hidden="true" className="relative h-7 w-10 shrink-0 rounded-md border border-border-strong bg-canvas">
                      <span className={cn('absolute size-2 rounded-full', checked ? 'bg-accent' : 'bg-subtle', DOT_PLACE[position])} />
                    </span>
                    {POSITION_LABELS[position]}
                  </label>
                );
              })}
            </div>
          </fieldset>
        </div>
      ) : null}

      <div className="flex items-center justify-between gap-4 rounded-card border border-border bg-surface px-4 py-4">
        <div className="flex flex-col">
          <label htmlFor={`${positionsId}-mark-buyers`} className="font-medium text-foreground">
            Mark paid pictures with the buyer
          </label>
          <p id={`${positionsId}-mark-buyers-hint`} className="text-sm text-subtle">
            Premium and pay-per-view pictures show each fan their own @username, faintly, so a leaked copy or screenshot names who shared it.
          </p>
        </div>
        <Switch
          id={`${positionsId}-mark-buyers`}
          aria-describedby={`${positionsId}-mark-buyers-hint`}
          checked={markBuyers}
          disabled={!canSave}
          onCheckedChange={(on) => form.setValue('markPaidPictures', on, { shouldDirty: true })}
        />
      </div>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Link to="/settings" className={buttonClasses({ variant: 'outline', size: 'lg' })}>
          Back
        </Link>
        <Button type="submit" size="lg" disabled={!canSave || save.isPending} aria-busy={save.isPending || undefined}>
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
