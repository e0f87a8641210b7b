import { SkeletonPerson } from '../../components/ui/skeleton';

/**
 * The placeholder of a post's comments while they load: shown by the section itself and, before
 * the section's code has arrived, by its lazy wrapper, so the two never differ.
 */
export function CommentsLoading() {
  return (
    <div aria-busy="true" className="flex flex-col gap-4 py-2">
      <span className="sr-only" role="status">
        Loading comments
      </span>
      {[0, 1].map((i) => (
        <SkeletonPerson key={i} className="gap-3" avatar="size-8" lines={['h-3 w-1/3', 'h-3 w-3/4']} />
      ))}
    </div>
  );
}
