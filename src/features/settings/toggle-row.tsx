import { useId } from 'react';
import { Switch } from '../../components/ui/switch';

/** A labelled on/off setting: the label names the switch, the hint describes it. */
export function ToggleRow({
  label,
  hint,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-4">
      <div className="flex min-w-0 flex-col">
        <label htmlFor={id} className="font-medium text-foreground">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-hint`} checked={checked} disabled={disabled} onCheckedChange={onChange} />
    </div>
  );
}

/** One switch of a ToggleRows box: which boolean of the form it sets, and its words. */
export interface ToggleSpec<K extends string> {
  key: K;
  label: string;
  hint: string;
}

/** A box of switches, one row each, that set the booleans of a settings form's values by key. */
export function ToggleRows<K extends string>({
  rows,
  values,
  onChange,
}: {
  rows: readonly ToggleSpec<K>[];
  values: Record<K, boolean>;
  onChange: (key: K, on: boolean) => void;
}) {
  return (
    <div className="divide-y divide-border rounded-card border border-border bg-surface">
      {rows.map(({ key, label, hint }) => (
        <ToggleRow key={key} label={label} hint={hint} checked={values[key]} onChange={(on) => onChange(key, on)} />
      ))}
    </div>
  );
}
