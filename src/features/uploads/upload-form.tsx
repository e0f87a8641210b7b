import { useRef } from 'react';
import type { CurrentUser } from '../../lib/trpc';
import { AddMoreFiles } from './add-more-files';
import { FileDropZone } from './file-drop-zone';
import { FilePreview } from './file-preview';
import { MultiFileList } from './multi-file-list';
import { PostOptions } from './post-options';
import { PostSendButtons } from './post-send-buttons';
import { PostTextFields } from './post-text-fields';
import { ResumeOffer } from './resume-offer';
import { SentFiles } from './sent-files';
import { StoredUploads } from './stored-uploads';
import { UploadFailureAlert } from './upload-failure-alert';
import { UploadProgressBar } from './upload-progress';
import { useContentDefaults } from './use-content-defaults';
import { useNewPost } from './use-new-post';

/**
 * The Content tab of /create (spec part 2 §2, §4, §5): one file (dropped or picked) with its
 * preview, the post text, hashtags, Paid content and NSFW switches, the unlock price (pay-per-view,
 * as Edit post sets it), then Save as Draft or
 * Publish, both disabled without a file or while an upload is under way. A failed upload keeps
 * everything the creator typed and says why beside the buttons, with Retry or Choose another file.
 */
export function UploadForm({ user }: { user: CurrentUser }) {
  const { upload, multi, single, several, picked, busy, addFiles, submit, sendingAs } = useNewPost(user);
  const { phase, form } = upload;
  const fields = form.watch();
  const formRef = useRef<HTMLFormElement>(null);
  useContentDefaults(form, !picked && phase === 'idle' && fields.title === '' && fields.postText === '' && fields.hashtags === '');

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

      <PostTextFields form={form} fields={fields} locked={busy} />
      <PostOptions form={form} fields={fields} locked={busy} />

      {upload.failure ? (
        <UploadFailureAlert failure={upload.failure} onRetry={upload.resume} onChooseAnother={chooseAnother} onDismiss={upload.dismissFailure} />
      ) : null}

      <PostSendButtons hasFile={!!picked} busy={busy} sendingAs={sendingAs} onSend={submit} />
    </form>
  );
}
