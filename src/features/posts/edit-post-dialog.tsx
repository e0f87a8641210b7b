import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useEffect, type RefObject } from 'react';
import { z } from 'zod';
import { EditPostInput } from '../../../common/post-edit';
import { POST_EDIT_TEXTS as T } from '../../../common/post-edit-texts';
import { refineUnlockFields, UnlockFormFields, unlockOfFields } from '../../../common/post-unlock';
import { HASHTAGS_HINT, POST_TEXT_MAX_LENGTH, POST_TITLE_MAX_LENGTH } from '../../../common/uploads';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { DIALOG_BOX_CLASS, DialogActions, DialogHeading, DialogOverlay } from '../../components/ui/dialog-parts';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { UnlockPriceFields } from '../../components/unlock-price-fields';
import { updatePost, type Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useZodForm, validationErrorToast } from '../../lib/use-zod-form';

// The form holds the unlock price flat (a checkbox and a typed price) where `posts.edit` takes
// { price, mode } | null; each field is checked by the very schema the server parses it with.
const fields = EditPostInput.in.shape;
const EditPostForm = z
  .object({
    title: fields.title,
    text: fields.text,
    hashtags: fields.hashtags,
    isPremium: fields.isPremium,
    ...UnlockFormFields,
  })
  .superRefine(refineUnlockFields);

const TEXTAREA_CLASS =
  'w-full resize-y rounded-xl border border-border bg-surface px-3.5 py-2.5 text-sm text-foreground outline-none hover:border-border-strong focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40 aria-invalid:border-danger/70';

const valuesOf = (post: Post): z.input<typeof EditPostForm> => ({
  title: post.title ?? '',
  text: post.text ?? '',
  hashtags: post.hashtags.map((tag) => `#${tag}`).join(' '),
  isPremium: post.isPremium,
  payPerView: !!post.unlock,
  unlockPrice: post.unlock?.price ?? '',
  unlockMode: post.unlock?.mode ?? 'everyone',
});

interface EditPostDialogProps {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** where the focus goes back when the dialog closes (the menu button) */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/**
 * The owner's 'Edit post' (issue 29 item 4): title, text, hashtags, premium and the unlock price,
 * prefilled from the post. Saving keeps the dialog open with the server's refusal beside the fields
 * (or in a toast); on success every cache holding the post takes the server's answer, and other
 * tabs showing it refetch on `post:updated`.
 */
export default function EditPostDialog({ post, open, onOpenChange, returnFocusRef }: EditPostDialogProps) {
  const queryClient = useQueryClient();
  const edit = trpc.posts.edit.useMutation();
  const form = useZodForm(EditPostForm, {
    defaultValues: valuesOf(post),
    invalidToast: validationErrorToast,
  });
  // each opening starts from the post as it is now (it may have been edited in another tab)
  const { reset } = form;
  useEffect(() => {
    if (open) reset(valuesOf(post));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on opening: a refetch must not wipe what is being typed
  }, [open, reset]);
  const pending = form.formState.isSubmitting;
  const payPerView = form.watch('payPerView');

  const onSubmit = form.submit(async (v) => {
    try {
      const edited = await edit.mutateAsync({
        postId: post.id,
        title: v.title,
        text: v.text,
        hashtags: v.hashtags,
        isPremium: v.isPremium,
        unlock: unlockOfFields(v),
      });
      updatePost(queryClient, post.id, (cached) => ({ ...cached, ...edited }));
      notify.success(T.saved);
      onOpenChange(false);
    } catch (error) {
      const validation = form.showServerErrors(error);
      if (validation) notify.error(validationErrorToast(validation.messages));
      else if (errorCode(error) === 'FORBIDDEN') notify.error(T.notAllowed);
      // 429 has its own toast (lib/trpc.ts); any other refusal says what the server said
      else if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error(isServerError(error) ? { title: T.failed.title, description: error.message } : T.failed);
    }
  });

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <DialogOverlay />
        <AlertDialog.Content
          className={`${DIALOG_BOX_CLASS} max-h-[calc(100dvh-2rem)] overflow-y-auto`}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusRef.current?.focus();
          }}
        >
          <form noValidate className="flex flex-col gap-5" onSubmit={onSubmit}>
            <DialogHeading icon={Pencil} tone="accent" title={T.title} description={T.description} />
            <FormField label={T.titleLabel} error={form.error('title')}>
              {(props) => <Input {...props} {...form.field('title')} maxLength={POST_TITLE_MAX_LENGTH} autoComplete="off" />}
            </FormField>
            <FormField label={T.textLabel} error={form.error('text')}>
              {({ invalid: _invalid, ...props }) => <textarea {...props} {...form.field('text')} rows={4} maxLength={POST_TEXT_MAX_LENGTH} className={TEXTAREA_CLASS} />}
            </FormField>
            <FormField label={T.hashtagsLabel} hint={HASHTAGS_HINT} error={form.error('hashtags')}>
              {(props) => <Input {...props} {...form.field('hashtags')} placeholder="#art #travel" autoComplete="off" />}
            </FormField>
            <label className="flex items-center gap-3 text-sm text-foreground">
              <Checkbox {...form.field('isPremium')} />
              {T.premiumLabel}
            </label>
            <UnlockPriceFields field={form.field} priceError={form.error('unlockPrice')} payPerView={payPerView} />
            <DialogActions pending={pending}>
              <Button type="submit" loading={pending}>
                {T.save}
              </Button>
            </DialogActions>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
