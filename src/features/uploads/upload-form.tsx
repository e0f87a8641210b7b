import { CalendarClock, History, Send, Save } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { HASHTAGS_HINT, parseHashtags, POST_TEXT_MAX_LENGTH, POST_TITLE_MAX_LENGTH } from '../../../common/uploads';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Switch } from '../../components/ui/switch';
import { UnlockPriceFields } from '../../components/unlock-price-fields';
import { cn } from '../../lib/cn';
import { trpc, type CurrentUser } from '../../lib/trpc';
import type { UnfinishedUpload } from './tus-upload';
import { FileDropZone } from './file-drop-zone';
import { FilePreview } from './file-preview';
import { formatFileSize, startedWhen } from './upload-format';
import { StoredUploads } from './stored-uploads';
import { UploadFailureAlert } from './upload-failure-alert';
import { percentOf, UploadProgressBar } from './upload-progress';
import { ScheduleFields } from '../../components/schedule-fields';
import { EMPTY_FIELDS } from './upload-metadata';
import { usePostUpload, type PostStatusChoice } from './use-post-upload';
import { useMultiUpload } from './use-multi-upload';
import { MultiFileList } from './multi-file-list';
import { AddMoreFiles } from './add-more-files';
import { SentFiles } from './sent-files';

/**
 * The Content tab of /create (spec part 2 §2, §4, §5): one file (dropped or picked) with its
 * preview, the post text, hashtags, Paid content and NSFW switches, the unlock price (pay-per-view,
 * as Edit post sets it), then Save as Draft or
 * Publish, both disabled without a file or while an upload is under way. A failed upload keeps
 * everything the creator typed and says why beside the buttons, with Retry or Choose another file.
 */
export function UploadForm({ user }: { user: CurrentUser }) {
  const upload = usePostUpload(user);
  const multi = useMultiUpload(user);
  const { picked: single, phase, busy: singleBusy, form } = upload;
  const several = multi.files.length > 1;
  // a post of several files: its list stands where the one file's preview was
  const picked = single ?? (several ? multi.files[0] : null);
  const busy = singleBusy || multi.busy;
  const fields = form.watch();
  const tags = useMemo(() => parseHashtags(fields.hashtags), [fields.hashtags]);
  const locked = busy;

  /** More files than one make a post of several: the one picked joins them, first. */
  const addFiles = (files: File[]) => {
    if (single) {
      multi.add([single.file, ...files]);
      upload.clearFile();
    } else multi.add(files);
  };
  // one file left of several: it is a post of one file again
  const { files: listed, clear: clearList } = multi;
  const { pickFile } = upload;
  useEffect(() => {
    if (listed.length !== 1 || multi.busy) return;
    clearList();
    pickFile(listed[0]!.file);
  }, [listed, clearList, pickFile, multi.busy]);

  const submit = (choice: PostStatusChoice, at?: Date) => {
    if (!several) return upload.submit(choice, at);
    // checked as one file's are (the unlock price's bounds beside its field)
    void form.submit(async (values) => {
      if (await multi.submit(choice, values, at)) form.reset(EMPTY_FIELDS);
    })();
  };
  // Schedule opens the date and time; the post is sent once they are chosen
  const [scheduling, setScheduling] = useState(false);
  // sent ('Post scheduled') or its file removed: the form is empty again, and the panel closes with it
  if (scheduling && !picked) setScheduling(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Content Settings (/settings/content): a fresh form starts from the creator's Paid and NSFW defaults
  const contentDefaults = trpc.settings.content.useQuery(undefined, { staleTime: 60_000 });
  const pristine = !picked && phase === 'idle' && fields.title === '' && fields.postText === '' && fields.hashtags === '';
  const { setValue } = form;
  useEffect(() => {
    const defaults = contentDefaults.data;
    if (!defaults || !pristine) return;
    setValue('isPaidContent', defaults.defaultPaid);
    setValue('isNsfw', defaults.defaultNsfw);
  }, [contentDefaults.data, pristine, setValue]);

  /** The file was refused for what it is: drop it and open the picker for another. */
  const chooseAnother = () => {
    upload.clearFile();
    upload.dismissFailure();
    // the drop zone's input is there after this render; the click still counts as the person's
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input[type="file"]')?.click());
  };

  return (
    <form
      ref={formRef}
      aria-label="New post"
      className="flex flex-col gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        submit('published');
      }}
    >
      {!picked ? <StoredUploads userId={user.id} /> : null}
      {multi.sent && !several ? <SentFiles sent={multi.sent} onDismiss={multi.dismissSent} /> : null}

      {several ? (
        <MultiFileList files={multi.files} busy={multi.busy} onAdd={addFiles} onMove={multi.move} onRemove={multi.remove} />
      ) : single ? (
        <div className="flex flex-col gap-2">
          <FilePreview file={single.file} rule={single.rule} removable={!busy} onRemove={upload.clearFile} />
          {phase === 'idle' ? <AddMoreFiles onAdd={addFiles} /> : null}
        </div>
      ) : (
        <FileDropZone onFile={upload.pickFile} onFiles={addFiles} disabled={busy} />
      )}

      {upload.resumeOffer && !busy ? (
        <ResumeOffer offer={upload.resumeOffer} onResume={upload.resumeEarlier} onDecline={upload.declineEarlier} />
      ) : null}

      {phase !== 'idle' ? (
        <UploadProgressBar
          phase={phase}
          progress={upload.progress}
          resumedFrom={upload.resumedFrom}
          onPause={upload.pause}
          onResume={upload.resume}
          onCancel={upload.cancel}
        />
      ) : null}

      <FormField
        label="Title"
        error={form.error('title')}
        hint={
          <span className="tabular-nums">
            Optional · {fields.title.length}/{POST_TITLE_MAX_LENGTH}
          </span>
        }
      >
        {(field) => (
          <Input
            {...field}
            {...form.field('title')}
            maxLength={POST_TITLE_MAX_LENGTH}
            disabled={locked}
            placeholder="Give your post a name"
            autoComplete="off"
          />
        )}
      </FormField>

      <FormField
        label="Post text"
        error={form.error('postText')}
        hint={
          <span className="tabular-nums">
            {fields.postText.length}/{POST_TEXT_MAX_LENGTH}
          </span>
        }
      >
        {(field) => (
          <textarea
            {...field}
            {...form.field('postText')}
            maxLength={POST_TEXT_MAX_LENGTH}
            disabled={locked}
            rows={4}
            placeholder="Say something about your post..."
            className={cn(
              'min-h-28 w-full resize-y rounded-xl border border-border bg-surface px-3.5 py-3 text-sm text-foreground placeholder:text-subtle',
              'transition-colors outline-none hover:border-border-strong focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
              'disabled:cursor-not-allowed disabled:opacity-60',
            )}
          />
        )}
      </FormField>

      <FormField
        label="Hashtags"
        error={form.error('hashtags')}
        hint={
          tags.length ? (
            <span className="flex flex-wrap gap-1.5" aria-label="Hashtags to be added">
              {tags.map((tag) => (
                <span key={tag} className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-violet-200">
                  #{tag}
                </span>
              ))}
            </span>
          ) : (
            HASHTAGS_HINT
          )
        }
      >
        {(field) => (
          <Input {...field} {...form.field('hashtags')} disabled={locked} placeholder="#art #travel" autoComplete="off" />
        )}
      </FormField>

      <div className="flex flex-col divide-y divide-border rounded-card border border-border">
        <SwitchRow
          label="Paid content"
          description="Only your subscribers can see it; others see a blurred preview."
          checked={fields.isPaidContent}
          disabled={locked}
          onChange={(on) => setValue('isPaidContent', on)}
        />
        <SwitchRow
          label="NSFW"
          description="Mark it as adult content."
          checked={fields.isNsfw}
          disabled={locked}
          onChange={(on) => setValue('isNsfw', on)}
        />
      </div>

      <div className="flex flex-col gap-4 rounded-card border border-border px-4 py-3">
        <UnlockPriceFields field={form.field} priceError={form.error('unlockPrice')} payPerView={fields.payPerView} disabled={locked} />
      </div>

      {upload.failure ? (
        <UploadFailureAlert failure={upload.failure} onRetry={upload.resume} onChooseAnother={chooseAnother} onDismiss={upload.dismissFailure} />
      ) : null}

      {scheduling ? (
        <ScheduleFields
          confirmLabel="Schedule post"
          busy={busy && (upload.status === 'scheduled' || multi.status === 'scheduled')}
          disabled={!picked || busy}
          onConfirm={(at) => submit('scheduled', at)}
        />
      ) : null}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button
          variant="secondary"
          size="lg"
          disabled={!picked || busy}
          aria-expanded={scheduling}
          onClick={() => setScheduling((open) => !open)}
        >
          <CalendarClock aria-hidden="true" className="size-4" />
          Schedule
        </Button>
        <Button
          variant="secondary"
          size="lg"
          disabled={!picked || busy}
          loading={busy && (upload.status === 'draft' || multi.status === 'draft')}
          onClick={() => submit('draft')}
        >
          {busy && (upload.status === 'draft' || multi.status === 'draft') ? null : <Save aria-hidden="true" className="size-4" />}
          Save as Draft
        </Button>
        <Button type="submit" size="lg" disabled={!picked || busy} loading={busy && (upload.status === 'published' || multi.status === 'published')}>
          {busy && (upload.status === 'published' || multi.status === 'published') ? null : <Send aria-hidden="true" className="size-4" />}
          Publish
        </Button>
      </div>
    </form>
  );
}

function SwitchRow({
  label,
  description,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  description: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-3">
      <div className="flex min-w-0 flex-col">
        <label htmlFor={id} className="text-sm font-medium text-foreground">
          {label}
        </label>
        <p id={`${id}-description`} className="text-xs text-subtle">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </div>
  );
}

/** The same file was being uploaded before (a reload, a lost connection): continue from the server's offset. */
function ResumeOffer({ offer, onResume, onDecline }: { offer: UnfinishedUpload; onResume: () => void; onDecline: () => void }) {
  const percent = percentOf({ sent: offer.offset, total: offer.size });
  const what = offer.metadata.status === 'draft' ? 'saving it as a draft' : 'publishing it';
  return (
    <div role="region" aria-label="Unfinished upload" className="flex flex-col gap-3 rounded-card border border-accent/40 bg-accent-soft p-4 sm:flex-row sm:items-center">
      <History aria-hidden="true" className="size-5 shrink-0 text-violet-200" />
      <p className="flex-1 text-sm text-foreground">
        You started {what} {startedWhen(offer.createdAt)}:{' '}
        <strong className="font-semibold">{percent}%</strong> ({formatFileSize(offer.offset)} of {formatFileSize(offer.size)}) is already uploaded.
        Resuming keeps the text and options you chose then.
      </p>
      <div className="flex shrink-0 gap-2">
        <Button size="sm" onClick={onResume}>
          Resume upload
        </Button>
        <Button size="sm" variant="ghost" onClick={onDecline}>
          Start over
        </Button>
      </div>
    </div>
  );
}
