import { useNavigate } from '@tanstack/react-router';
import { Camera, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { AVATAR_ACCEPT, SETTINGS_LIMITS, UpdatePersonalInfoInput, categoriesSchema, type PersonalInfoDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Loaded } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { SaveChangesButton } from './settings-form';
import { avatarFileProblem, AvatarUploadError, uploadAvatar } from './upload-avatar';

/**
 * /settings/personal-info (spec part 2 §2, §5): username, display name, bio, categories (chips)
 * and the avatar. Saving says 'Your profile has been updated.' and goes to /{username} (the new
 * one: the old address stops working). The server checks everything again.
 */
export function PersonalInfoForm() {
  const info = trpc.settings.personalInfo.useQuery(undefined, {
    // while the worker re-encodes an avatar, look again every second
    refetchInterval: (query) => (query.state.data?.avatarPending ? 1000 : false),
  });
  return (
    <Loaded query={info} loading="Loading your profile" rows={4} failed={SETTINGS_TEXTS.profileSaveFailed}>
      {(data) => <PersonalInfoFields info={data} />}
    </Loaded>
  );
}

function PersonalInfoFields({ info }: { info: PersonalInfoDto }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const save = trpc.settings.updatePersonalInfo.useMutation();
  const form = useZodForm(UpdatePersonalInfoInput, {
    defaultValues: { username: info.username, displayName: info.displayName, bio: info.bio, categories: info.categories },
  });
  const bio = form.watch('bio') ?? '';
  const categories = form.watch('categories') ?? [];

  const onSubmit = form.submit(async (values) => {
    try {
      const result = await save.mutateAsync(values);
      notify.success({ title: result.message });
      // names and links everywhere follow the new profile
      await Promise.all([
        utils.auth.me.invalidate(),
        utils.settings.personalInfo.invalidate(),
        utils.profiles.invalidate(),
        utils.posts.invalidate(),
        utils.explore.invalidate(),
      ]);
      await navigate({ to: '/$username', params: { username: result.profile.username } });
    } catch (error) {
      const validation = form.showServerErrors(error);
      notify.error({
        title: validation?.title ?? 'Error',
        description: validation?.messages.join('\n') ?? (errorCode(error) === 'UNAUTHORIZED' ? 'Not authenticated' : SETTINGS_TEXTS.profileSaveFailed),
      });
    }
  });

  return (
    <form aria-label={SETTINGS_TEXTS.personalInfo} className="flex flex-col gap-6" onSubmit={onSubmit} noValidate>
      <AvatarPicker info={info} />

      <FormField label="Username" error={form.error('username')} hint="Your profile lives at /your-username. Letters, numbers, dots, underscores and hyphens.">
        {(field) => <Input {...field} {...form.field('username')} autoComplete="username" autoCapitalize="none" spellCheck={false} maxLength={30} />}
      </FormField>

      <FormField label="Display name" error={form.error('displayName')}>
        {(field) => <Input {...field} {...form.field('displayName')} autoComplete="name" maxLength={60} />}
      </FormField>

      <FormField label="Bio" error={form.error('bio')} hint={`${bio.length}/${SETTINGS_LIMITS.bioMaxLength} characters`}>
        {(field) => (
          <textarea
            {...field}
            {...form.field('bio')}
            rows={4}
            maxLength={SETTINGS_LIMITS.bioMaxLength}
            className={cn(
              'w-full rounded-xl border bg-surface px-3.5 py-2.5 text-sm text-foreground placeholder:text-subtle',
              'outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
              field.invalid ? 'border-danger/70' : 'border-border hover:border-border-strong',
            )}
            placeholder="Tell people about yourself"
          />
        )}
      </FormField>

      <CategoriesField
        value={categories}
        error={form.error('categories')}
        onChange={(next) => {
          form.clearErrors('categories');
          form.setValue('categories', next, { shouldDirty: true });
        }}
      />

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <SaveChangesButton pending={save.isPending} />
      </div>
    </form>
  );
}

/** Chips: Enter or Add puts the typed category in (trimmed, non-empty, once, at most 10); × takes one out. */
function CategoriesField({ value, error, onChange }: { value: string[]; error?: string; onChange: (next: string[]) => void }) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const add = () => {
    const next = [...value, draft.trim()];
    const parsed = categoriesSchema.safeParse(next);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? SETTINGS_TEXTS.categoryEmpty);
      return;
    }
    setProblem(null);
    setDraft('');
    onChange(parsed.data);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  const message = problem ?? error;

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        Categories
      </label>
      {value.length > 0 ? (
        <ul aria-label="Your categories" className="flex flex-wrap gap-2">
          {value.map((category) => (
            <li key={category} className="inline-flex items-center gap-1 rounded-full border border-accent/30 bg-accent-soft py-1 pr-1 pl-3 text-sm text-violet-200">
              {category}
              <button
                type="button"
                aria-label={`Remove ${category}`}
                onClick={() => onChange(value.filter((c) => c !== category))}
                className="inline-flex size-6 items-center justify-center rounded-full hover:bg-accent/30 focus-visible:outline-2 focus-visible:outline-accent"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          maxLength={SETTINGS_LIMITS.categoryMaxLength}
          placeholder="e.g. Music"
          invalid={!!message}
          aria-describedby={`${id}-hint`}
        />
        <Button type="button" variant="secondary" onClick={add} disabled={value.length >= SETTINGS_LIMITS.categoriesMax}>
          Add
        </Button>
      </div>
      <p id={`${id}-hint`} className={cn('text-xs', message ? 'font-medium text-danger' : 'text-subtle')} role={message ? 'alert' : undefined}>
        {message ?? `Press Enter to add. Up to ${SETTINGS_LIMITS.categoriesMax} categories.`}
      </p>
    </div>
  );
}

/**
 * The avatar: a JPG, PNG, WebP or GIF under 5 MB, sent at once with a progress bar; the worker
 * makes it square and strips its metadata, and the screen shows it when that is done.
 */
function AvatarPicker({ info }: { info: PersonalInfoDto }) {
  const utils = trpc.useUtils();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  /** the avatar shown when this page sent an upload, until the worker has settled it */
  const awaiting = useRef<{ previousUrl: string | null } | null>(null);

  // the worker finished (or refused the file): say so once, and refresh the avatar everywhere
  useEffect(() => {
    const sent = awaiting.current;
    if (!sent || info.avatarPending) return;
    if (info.avatarFailure) {
      awaiting.current = null;
      notify.error({ title: SETTINGS_TEXTS.avatarFailed, description: info.avatarFailure });
    } else if (info.avatarUrl !== sent.previousUrl) {
      awaiting.current = null;
      notify.success({ title: SETTINGS_TEXTS.avatarUpdated });
      void utils.auth.me.invalidate();
      void utils.profiles.invalidate();
    }
  }, [info.avatarPending, info.avatarFailure, info.avatarUrl, utils]);

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = avatarFileProblem(file);
    if (problem) return void notify.error(problem);
    setProgress(0);
    try {
      awaiting.current = { previousUrl: info.avatarUrl };
      await uploadAvatar(file, setProgress);
      await utils.settings.personalInfo.invalidate();
    } catch (error) {
      awaiting.current = null;
      notify.error(error instanceof AvatarUploadError ? error.text : { title: 'Error', description: SETTINGS_TEXTS.avatarFailed });
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null || info.avatarPending;
  return (
    <div className="flex items-center gap-4 rounded-card border border-border bg-surface p-4">
      <Avatar src={info.avatarUrl} name={info.displayName || info.username} size="xl" ring={false} key={info.avatarUrl ?? 'none'} />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <p className="font-medium text-foreground">Avatar</p>
        {progress !== null ? (
          <div role="progressbar" aria-label="Uploading avatar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)} className="h-2 w-full overflow-hidden rounded-full bg-surface-raised">
            <div className="h-full bg-accent transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
        ) : info.avatarPending ? (
          <p role="status" className="text-sm text-muted">
            {SETTINGS_TEXTS.avatarProcessing}
          </p>
        ) : (
          <p className="text-sm text-muted">JPG, PNG, WebP or GIF, smaller than 5MB. It is cropped to a square.</p>
        )}
        <div>
          <input ref={input} type="file" accept={AVATAR_ACCEPT} className="sr-only" id="avatar-file" tabIndex={-1} aria-label="Profile picture file" onChange={(e) => void onFile(e.target.files?.[0])} />
          <Button type="button" variant="secondary" size="sm" disabled={busy} onClick={() => input.current?.click()}>
            <Camera aria-hidden="true" className="size-4" />
            {info.avatarUrl ? 'Change avatar' : 'Upload avatar'}
          </Button>
        </div>
      </div>
    </div>
  );
}
