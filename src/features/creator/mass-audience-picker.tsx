import { useId } from 'react';
import { MASS_AUDIENCES, type MassAudience } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { Skeleton } from '../../components/ui/skeleton';
import { FIELD } from './mass-field-classes';

type Props = {
  audience: MassAudience;
  onAudience: (a: MassAudience) => void;
  tierId: string;
  onTierId: (id: string) => void;
  loading: boolean;
  tiers: { id: string; name: string; count: number }[] | undefined;
  countOf: (a: MassAudience) => number | null;
};

/** Who a mass message goes to, each choice with how many it reaches; a tier choice asks which tier. */
export function MassAudiencePicker({ audience, onAudience, tierId, onTierId, loading, tiers, countOf }: Props) {
  const tierSelect = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{T.audienceLabel}</legend>
      {MASS_AUDIENCES.map((a) => {
        const n = countOf(a);
        return (
          <label key={a} className="flex cursor-pointer items-center justify-between gap-3 rounded-lg border border-border px-3 py-2 text-sm has-[:checked]:border-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent">
            <span className="flex items-center gap-2">
              <input type="radio" name="audience" value={a} checked={audience === a} onChange={() => onAudience(a)} className="accent-[var(--color-accent)]" />
              {T.audience[a]}
            </span>
            <span className="shrink-0 whitespace-nowrap text-muted" data-testid={`audience-count-${a}`}>
              {loading ? <Skeleton className="h-4 w-16" /> : n === null ? '' : T.recipients(n)}
            </span>
          </label>
        );
      })}
      {audience === 'tier' ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={tierSelect} className="text-sm font-medium">
            {T.tierLabel}
          </label>
          <select id={tierSelect} value={tierId} onChange={(e) => onTierId(e.target.value)} className={FIELD}>
            <option value="">—</option>
            {tiers?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({T.recipients(t.count)})
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </fieldset>
  );
}
