import { useId, type ReactNode } from 'react';
import { Switch } from '../../components/ui/switch';
import { UnlockPriceFields } from '../../components/unlock-price-fields';
import type { PostForm } from './use-post-upload';
import type { PostFields } from './upload-metadata';

/** Who may see the new post: Paid content and NSFW, then its unlock price (pay-per-view). */
export function PostOptions({ form, fields, locked }: { form: PostForm; fields: PostFields; locked: boolean }) {
  const { setValue } = form;
  return (
    <>
      <div className="flex flex-col divide-y divide-border rounded-card border border-border">
        <SwitchRow
          label="Paid content"
          description="Only your subscribers can see it; others see a blurred preview."
          checked={fields.isPaidContent}
          disabled={locked}
          onChange={(on) => setValue('isPaidContent', on)}
        />
        <SwitchRow
          label="NSFW"
          description="Mark it as adult content."
          checked={fields.isNsfw}
          disabled={locked}
          onChange={(on) => setValue('isNsfw', on)}
        />
      </div>

      <div className="flex flex-col gap-4 rounded-card border border-border px-4 py-3">
        <UnlockPriceFields field={form.field} priceError={form.error('unlockPrice')} payPerView={fields.payPerView} disabled={locked} />
      </div>
    </>
  );
}

function SwitchRow({
  label,
  description,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  description: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-3">
      <div className="flex min-w-0 flex-col">
        <label htmlFor={id} className="text-sm font-medium text-foreground">
          {label}
        </label>
        <p id={`${id}-description`} className="text-xs text-subtle">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </div>
  );
}
