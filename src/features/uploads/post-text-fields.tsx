import { useMemo } from 'react';
import { HASHTAGS_HINT, parseHashtags, POST_TEXT_MAX_LENGTH, POST_TITLE_MAX_LENGTH } from '../../../common/uploads';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import type { PostFields } from './upload-metadata';
import type { PostForm } from './use-post-upload';

/** The new post's title, text and hashtags, each with its count or hint; the tags as they will be added. */
export function PostTextFields({ form, fields, locked }: { form: PostForm; fields: PostFields; locked: boolean }) {
  const tags = useMemo(() => parseHashtags(fields.hashtags), [fields.hashtags]);
  return (
    <>
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
    </>
  );
}
