import { CalendarClock, Send, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { postName } from '../../../common/post-name';
import { SCHEDULE_TEXTS } from '../../../common/schedule';
import { PagedPosts } from '../../components/paged-posts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatLongDateTime, isoString } from '../../lib/format';
import type { Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { ScheduleFields } from '../../components/schedule-fields';
import { DraftSkeleton } from './drafts-tab';
import { profileListOptions, SCHEDULED_INPUT } from './profile-queries';
import { usePublishDraft } from './use-publish-draft';

/** The server's words for a refusal (a time out of bounds), else a plain failure. */
const failed = (error: unknown) => notify.error({ title: 'Error', description: error instanceof Error ? error.message : 'Something went wrong' });

/**
 * The owner's Scheduled tab (issue 29): their scheduled posts, soonest first, each with its time
 * and Reschedule, Publish now and Cancel (which asks first and puts the post back in Drafts).
 */
export function ScheduledTab({ username, onPublished, renderTile }: { username: string; onPublished: () => void; renderTile: (post: Post) => ReactNode }) {
  const scheduled = trpc.profiles.scheduled.useInfiniteQuery(SCHEDULED_INPUT, { ...profileListOptions, refetchOnMount: 'always' });
  const utils = trpc.useUtils();
  const { publish, pendingId } = usePublishDraft(username, () => {
    void utils.profiles.scheduled.invalidate();
    onPublished();
  });
  return (
    <PagedPosts
      query={scheduled}
      layout="list"
      label="Scheduled"
      emptyText={SCHEDULE_TEXTS.noScheduled}
      emptyIcon={CalendarClock}
      skeleton={<DraftSkeleton />}
      skeletonCount={2}
      sentinelTestId="scheduled-sentinel"
      renderItem={(post) => (
        <ScheduledRow post={post} tile={renderTile(post)} publishing={pendingId === post.id} disabled={pendingId !== null} onPublish={() => void publish(post.id)} />
      )}
    />
  );
}

function ScheduledRow({ post, tile, publishing, disabled, onPublish }: { post: Post; tile: ReactNode; publishing: boolean; disabled: boolean; onPublish: () => void }) {
  const title = postName(post);
  const utils = trpc.useUtils();
  const [moving, setMoving] = useState(false);
  const reschedule = trpc.profiles.reschedule.useMutation();
  const cancel = trpc.profiles.cancelSchedule.useMutation();
  const at = post.publishAt ? new Date(post.publishAt) : null;
  const refresh = () => Promise.all([utils.profiles.scheduled.invalidate(), utils.profiles.drafts.invalidate(), utils.profiles.byUsername.invalidate()]);

  const move = async (publishAt: Date) => {
    try {
      await reschedule.mutateAsync({ postId: post.id, publishAt });
      notify.success(SCHEDULE_TEXTS.rescheduled);
      setMoving(false);
      await refresh();
    } catch (error) {
      failed(error);
    }
  };
  const drop = async () => {
    try {
      await cancel.mutateAsync({ postId: post.id });
      notify.success(SCHEDULE_TEXTS.cancelled);
      await refresh();
    } catch (error) {
      failed(error);
    }
  };

  return (
    <article aria-label={title} data-post-id={post.id} className="flex flex-col gap-3 rounded-card border border-border bg-surface p-3 shadow-xl shadow-black/20 md:p-4">
      <div className="flex gap-4">
        <div className="w-24 shrink-0 md:w-28">{tile}</div>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="rounded-full border border-primary/40 bg-primary/10 px-2 py-0.5 text-[11px] font-semibold tracking-wide text-foreground uppercase">Scheduled</span>
            {at ? (
              <time dateTime={isoString(at)} className="text-xs text-muted">
                {formatLongDateTime(at)}
              </time>
            ) : null}
          </div>
          <h3 className="truncate font-semibold text-foreground">{title}</h3>
          {post.text ? <p className="line-clamp-2 text-sm break-words text-muted">{post.text}</p> : null}
          <div className="mt-auto flex flex-wrap justify-end gap-2 pt-1">
            <Button size="sm" variant="secondary" aria-expanded={moving} onClick={() => setMoving((m) => !m)} aria-label={`Reschedule ${title}`}>
              <CalendarClock aria-hidden="true" className="size-4" />
              Reschedule
            </Button>
            <ConfirmDialog
              title={SCHEDULE_TEXTS.cancelAsk.title}
              description={SCHEDULE_TEXTS.cancelAsk.description}
              confirmLabel="Cancel schedule"
              cancelLabel="Keep it"
              onConfirm={drop}
              trigger={
                <Button size="sm" variant="secondary" aria-label={`Cancel the schedule of ${title}`}>
                  <X aria-hidden="true" className="size-4" />
                  Cancel
                </Button>
              }
            />
            <Button size="sm" onClick={onPublish} loading={publishing} disabled={disabled && !publishing} aria-label={`Publish ${title} now`}>
              {publishing ? null : <Send aria-hidden="true" className="size-4" />}
              Publish now
            </Button>
          </div>
        </div>
      </div>
      {moving ? <ScheduleFields confirmLabel="Save new time" initial={at ?? undefined} busy={reschedule.isPending} onConfirm={(next) => void move(next)} /> : null}
    </article>
  );
}
