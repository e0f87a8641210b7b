import { Link } from "@tanstack/react-router";
import { Lock } from "lucide-react";
import { formatDuration } from "../../../common/duration";
import { formatRand } from "../../../common/format";
import { postName } from "../../../common/post-name";
import { POST_UNLOCK_TEXTS as T } from "../../../common/post-unlock-texts";
import { Button } from "../../components/ui/button";
import { cn } from "../../lib/cn";
import type { Post } from "../../lib/post-cache";
import { trpc } from "../../lib/trpc";
import { PurchaseDialog } from "./purchase-dialog";
import { unlockOffer } from "./purchase-offer";
import { usePurchase } from "./use-purchase";

/** What a locked post holds, without showing it: 'Video · 2:31', 'Photo', 'PDF document'. */
export function contentsOf(media: NonNullable<Post["media"]>): string {
  const type = media.contentType.toLowerCase();
  const kind = type.startsWith("image/")
    ? "Photo"
    : type.startsWith("video/")
      ? "Video"
      : type.startsWith("audio/")
        ? "Audio"
        : type === "application/pdf"
          ? "PDF document"
          : type === "text/plain"
            ? "Text file"
            : "Document";
  return media.durationSeconds
    ? `${kind} · ${formatDuration(media.durationSeconds)}`
    : kind;
}

/**
 * The overlay of a pay-per-view post the viewer has not bought (issue 27 item 2), over its blurred
 * preview: what it holds, its price, and 'Unlock for R…', which opens the one purchase
 * confirmation (usePurchase): one confirmed charge opens it for good, and the page refetches it
 * through the access rule. A post free to subscribers also offers the subscribe page. Loaded
 * lazily: the post card is on the landing page's budget.
 */
export default function UnlockOverlay({
  post,
  compact = false,
}: {
  post: Post;
  compact?: boolean;
}) {
  const purchase = usePurchase();
  const provider = trpc.subscriptions.provider.useQuery(undefined, {
    staleTime: 60_000,
  });
  const unlock = post.unlock;
  if (!unlock || !post.media) return null;
  const open = () =>
    purchase.confirm(
      unlockOffer(
        {
          id: post.id,
          title: postName(post),
          creatorId: post.creator.id,
          price: unlock.price,
        },
        { provider: provider.data?.provider ?? null },
      ),
    );
  return (
    <div
      data-testid="unlock-overlay"
      className="absolute inset-0 flex flex-col items-center justify-center gap-2.5 bg-black/50 p-4 text-center"
    >
      <span
        className={cn(
          "flex items-center justify-center rounded-full bg-violet-400/15 text-violet-200 ring-1 ring-violet-300/30 backdrop-blur-md",
          compact ? "size-9" : "size-12",
        )}
      >
        <Lock aria-hidden="true" className={compact ? "size-4" : "size-5"} />
      </span>
      <p
        className={cn(
          "font-semibold text-white drop-shadow",
          compact ? "text-sm" : "text-lg",
        )}
      >
        {T.payPerView}
      </p>
      <p
        className="text-xs text-white/85 drop-shadow"
        data-testid="unlock-contents"
      >
        {contentsOf(post.media)}
      </p>
      <Button
        type="button"
        size="sm"
        onClick={open}
        data-testid="unlock-button"
      >
        {T.unlockFor(formatRand(unlock.price))}
      </Button>
      {unlock.mode === "non_subscribers" ? (
        <Link
          to="/$username/subscribe"
          params={{ username: post.creator.username }}
          className="text-xs font-medium text-violet-200 underline underline-offset-4 hover:text-white"
        >
          Or subscribe to see it
        </Link>
      ) : null}
      <PurchaseDialog purchase={purchase} />
    </div>
  );
}
