import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** A dashed box with an icon and a line of text: an empty list, no search results. */
export function EmptyState({ icon: Icon, children, className }: { icon: LucideIcon; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center gap-3 rounded-card border border-dashed border-border px-6 py-14 text-center', className)}>
      <Icon aria-hidden="true" className="size-7 text-subtle" />
      <p className="text-muted">{children}</p>
    </div>
  );
}
