import { SkeletonPerson } from '../../components/ui/skeleton';

/*
 * The chat list's skeletons, apart from the list: /messages shows them as its pending component,
 * which the router keeps in the entry chunk, and the list itself loads with the page's chunk.
 */

export function ChatRowSkeleton() {
  return <SkeletonPerson className="items-center gap-3 px-4 py-3.5" avatar="size-14" lines={['h-4 w-40', 'h-3 w-24', 'h-3 w-3/4']} />;
}

export function ChatListSkeleton() {
  return (
    <div aria-busy="true" data-testid="chat-list-skeleton" className="overflow-hidden rounded-card border border-border bg-surface">
      <span className="sr-only" role="status">
        Loading conversations
      </span>
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="border-b border-border last:border-b-0">
          <ChatRowSkeleton />
        </div>
      ))}
    </div>
  );
}
