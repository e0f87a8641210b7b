import { Link } from '@tanstack/react-router';
import { Reply } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '../../../common/limits';
import { commentTextSchema } from '../../../common/comment-text-schema';
import { COMMENT_TEXTS } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { CommentsLoading } from './comments-loading';
import { cn } from '../../lib/cn';
import { formatShortDateTime, isoString } from '../../lib/format';
import { useDisplayZone } from '../../lib/use-display-zone';
import { CLIENT_COMMENT_PREFIX, type Comment } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { buildCommentTree, type CommentNode } from './comment-tree';
import { commentsQueryOptions } from './comments-queries';
import { useAddComment } from './use-add-comment';

/** Replies nest visually up to this depth; deeper ones line up with the last level. */
const MAX_INDENT_DEPTH = 4;

/**
 * A post's comments (spec part 1 §2, §4, §5): threads with indented replies and en-US short
 * timestamps, one 'Your comment' box — at the top for a new comment ('Add a comment...'), or
 * under the comment being answered after Reply ('Write a reply...', with Cancel). Submitting is
 * disabled while the trimmed text is empty. Comment text is rendered as text.
 */
export function CommentsSection({ postId }: { postId: string }) {
  const comments = trpc.comments.list.useQuery({ postId }, commentsQueryOptions);
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const tree = useMemo(() => buildCommentTree(comments.data ?? []), [comments.data]);

  // 'Error - Failed to load comments', once per failure
  useEffect(() => {
    if (comments.isError && comments.errorUpdatedAt > 0) {
      notify.error(COMMENT_TEXTS.loadFailed, { id: `comments-${postId}` });
    }
  }, [comments.isError, comments.errorUpdatedAt, postId]);

  // a reply target that disappeared (its post's comments reloaded without it) ends reply mode
  useEffect(() => {
    if (replyTo && comments.data && !comments.data.some((c) => c.id === replyTo.id)) setReplyTo(null);
  }, [replyTo, comments.data]);

  let list;
  if (comments.isError && !comments.data) {
    list = <p className="py-4 text-center text-sm text-muted">{COMMENT_TEXTS.loadFailed.description}</p>;
  } else if (!comments.data) {
    list = <CommentsLoading />;
  } else if (comments.data.length === 0) {
    list = <p className="py-4 text-center text-sm text-muted">{COMMENT_TEXTS.empty}</p>;
  } else {
    list = (
      <ol className="flex flex-col gap-4" aria-label="Comment threads">
        {tree.map((node) => (
          <CommentThread key={node.comment.id} node={node} depth={0} postId={postId} replyTo={replyTo} setReplyTo={setReplyTo} />
        ))}
      </ol>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {replyTo ? null : <CommentBox postId={postId} parent={null} />}
      {list}
    </div>
  );
}

function CommentThread({
  node,
  depth,
  postId,
  replyTo,
  setReplyTo,
}: {
  node: CommentNode;
  depth: number;
  postId: string;
  replyTo: Comment | null;
  setReplyTo: (comment: Comment | null) => void;
}) {
  const { comment } = node;
  const pending = comment.id.startsWith(CLIENT_COMMENT_PREFIX);
  const name = comment.author.displayName || comment.author.username;
  const zone = useDisplayZone();
  const replying = replyTo?.id === comment.id;
  return (
    <li className="flex flex-col gap-3">
      <div className={cn('flex gap-3', pending && 'opacity-60')} aria-busy={pending || undefined} data-comment-id={pending ? undefined : comment.id}>
        <Avatar src={comment.author.avatarUrl} name={name} size="sm" ring={false} className="mt-0.5" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <Link to="/$username" params={{ username: comment.author.username }} className="text-sm font-semibold text-foreground hover:underline">
              {name}
            </Link>
            <time dateTime={isoString(comment.createdAt)} className="text-xs text-subtle">
              {formatShortDateTime(comment.createdAt, zone)}
            </time>
          </div>
          <p className="mt-0.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-foreground/90">{comment.text}</p>
          {pending ? null : (
            <button
              type="button"
              onClick={() => setReplyTo(replying ? null : comment)}
              aria-label={`Reply to ${name}`}
              className="mt-1 inline-flex items-center gap-1 rounded text-xs font-semibold text-muted hover:text-foreground"
            >
              <Reply aria-hidden="true" className="size-3.5" />
              Reply
            </button>
          )}
        </div>
      </div>
      {replying ? (
        <div className="ml-11">
          <CommentBox postId={postId} parent={comment} onDone={() => setReplyTo(null)} />
        </div>
      ) : null}
      {node.replies.length ? (
        <ol
          aria-label={`Replies to ${name}`}
          className={cn('flex flex-col gap-3', depth < MAX_INDENT_DEPTH && 'ml-4 border-l border-border pl-4 md:ml-5 md:pl-5')}
        >
          {node.replies.map((child) => (
            <CommentThread key={child.comment.id} node={child} depth={depth + 1} postId={postId} replyTo={replyTo} setReplyTo={setReplyTo} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** The 'Your comment' box: a new comment (parent null) or a reply with Cancel. */
function CommentBox({ postId, parent, onDone }: { postId: string; parent: Comment | null; onDone?: () => void }) {
  const addComment = useAddComment(postId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const trimmedEmpty = text.trim().length === 0;
  const replying = parent !== null;
  const parentName = parent ? parent.author.displayName || parent.author.username : '';

  useEffect(() => {
    if (replying) ref.current?.focus();
  }, [replying]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const parsed = commentTextSchema.safeParse(text);
    if (!parsed.success) {
      // empty text never gets here (the button is disabled); too long says so
      if (!trimmedEmpty) setError(parsed.error.issues[0]?.message ?? COMMENT_TEXTS.textRequired);
      return;
    }
    setError(null);
    const sent = parsed.data;
    setText('');
    onDone?.();
    const ok = await addComment(sent, parent?.id ?? null);
    // give the words back if the comment did not make it (and nothing new was typed meanwhile)
    if (!ok && !onDone) setText((current) => current || sent);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void submit();
    if (event.key === 'Escape' && replying) onDone?.();
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2" aria-label={replying ? `Reply to ${parentName}` : 'Add a comment'}>
      <label htmlFor={id} className="sr-only">
        {COMMENT_TEXTS.label}
      </label>
      {replying ? (
        <p className="text-xs text-muted">
          Replying to <span className="font-semibold text-foreground">{parentName}</span>
        </p>
      ) : null}
      <textarea
        ref={ref}
        id={id}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
        placeholder={replying ? COMMENT_TEXTS.replyPlaceholder : COMMENT_TEXTS.placeholder}
        maxLength={LIMITS.commentMaxLength}
        rows={2}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'min-h-16 w-full resize-y rounded-xl border bg-surface-raised px-3.5 py-2.5 text-sm text-foreground placeholder:text-subtle',
          'outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
          error ? 'border-danger/70' : 'border-border hover:border-border-strong',
        )}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        {replying ? (
          <Button variant="ghost" size="sm" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" size="sm" disabled={trimmedEmpty}>
          {replying ? 'Reply' : 'Post'}
        </Button>
      </div>
    </form>
  );
}
