import { FileText, Image, Lock, Music, Video, type LucideIcon } from 'lucide-react';
import type { PremiumCounts } from '../../../common/billing-dtos';

interface Kind {
  key: 'image' | 'video' | 'audio' | 'documents';
  icon: LucideIcon;
  one: string;
  many: string;
}

const KINDS: Kind[] = [
  { key: 'image', icon: Image, one: 'image', many: 'images' },
  { key: 'video', icon: Video, one: 'video', many: 'videos' },
  { key: 'audio', icon: Music, one: 'audio', many: 'audio' },
  { key: 'documents', icon: FileText, one: 'document', many: 'documents' },
];

function countOf(counts: PremiumCounts, key: Kind['key']): number {
  return key === 'documents' ? counts.pdf + counts.document : counts[key];
}

/** '5 images, 2 videos and 1 document' for a screen reader and the e2e test alike. */
export function unlockSummary(counts: PremiumCounts): string {
  const parts = KINDS.map((k) => [countOf(counts, k.key), k] as const)
    .filter(([n]) => n > 0)
    .map(([n, k]) => `${n} ${n === 1 ? k.one : k.many}`);
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * The honest paywall (issue 11 item 2): before paying, a fan sees what a subscription unlocks
 * today, counted by kind from the creator's published premium posts, including when that is none.
 */
export function PremiumUnlocks({ counts, creatorName }: { counts: PremiumCounts; creatorName: string }) {
  const summary = unlockSummary(counts);
  return (
    <section aria-labelledby="unlocks-heading" className="rounded-card border border-border bg-surface p-5 md:p-6">
      <div className="flex items-center gap-2">
        <Lock aria-hidden="true" className="size-4 text-amber-300" />
        <h2 id="unlocks-heading" className="font-semibold text-foreground">
          What a subscription unlocks today
        </h2>
      </div>
      {counts.total === 0 ? (
        <p data-testid="unlock-summary" className="mt-2 text-sm text-muted">
          {creatorName} has no premium posts yet: a subscription supports them and unlocks the premium posts they publish next.
        </p>
      ) : (
        <>
          <p data-testid="unlock-summary" className="mt-2 text-sm text-muted">
            <strong className="font-semibold text-foreground">
              {counts.total} premium {counts.total === 1 ? 'post' : 'posts'}
            </strong>{' '}
            by {creatorName}: {summary}.
          </p>
          <ul aria-label="Premium posts by kind" className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {/* only the kinds there are: no "0 videos" (issue 47) */}
            {KINDS.filter(({ key }) => countOf(counts, key) > 0).map(({ key, icon: Icon, one, many }) => {
              const n = countOf(counts, key);
              return (
                <li
                  key={key}
                  className="flex items-center gap-3 rounded-xl border border-border bg-surface-raised px-3 py-2.5 text-sm"
                  aria-label={`${n} ${n === 1 ? one : many}`}
                >
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-violet-300" />
                  <span aria-hidden="true">
                    <span className="font-semibold text-foreground">{n}</span> <span className="text-muted">{n === 1 ? one : many}</span>
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
