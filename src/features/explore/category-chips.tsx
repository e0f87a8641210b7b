import { Check } from 'lucide-react';
import { EXPLORE_CATEGORIES } from '../../../common/enums';
import type { ExploreCategory } from '../../../common/profile-schemas';
import { cn } from '../../lib/cn';

/**
 * The category chips (spec part 1 §2, §9: Art, Music, Gaming, Technology): toggle buttons
 * (aria-pressed), any number on at once; a creator matches if any of its categories is on.
 */
export function CategoryChips({
  selected,
  onChange,
}: {
  selected: readonly ExploreCategory[];
  onChange: (next: ExploreCategory[]) => void;
}) {
  const toggle = (category: ExploreCategory) =>
    onChange(selected.includes(category) ? selected.filter((c) => c !== category) : [...selected, category]);

  return (
    <div role="group" aria-label="Categories" className="flex flex-wrap items-center gap-1.5 sm:gap-2">
      {EXPLORE_CATEGORIES.map((category) => {
        const on = selected.includes(category);
        return (
          <button
            key={category}
            type="button"
            aria-pressed={on}
            onClick={() => toggle(category)}
            className={cn(
              'inline-flex h-9 items-center gap-1.5 rounded-full border px-4 text-sm font-semibold transition-colors max-sm:px-3 max-sm:text-[13px]',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
              on
                ? 'border-transparent bg-gradient-accent text-white shadow-lg shadow-accent/25'
                : 'border-border bg-surface text-muted hover:border-border-strong hover:text-foreground',
            )}
          >
            {on ? <Check aria-hidden="true" className="size-3.5" /> : null}
            {category}
          </button>
        );
      })}
      {selected.length > 0 ? (
        <button
          type="button"
          onClick={() => onChange([])}
          aria-label="Clear categories"
          className="h-9 rounded-full px-3 text-sm font-medium text-subtle transition-colors hover:text-foreground"
        >
          Clear
        </button>
      ) : null}
    </div>
  );
}
