import { MEDIA_KINDS, type MediaKind } from '../../../common/enums';
import { VAULT_USES } from '../../../common/vault-schemas';
import { VAULT_TEXTS as T } from '../../../common/vault-texts';

export type VaultUse = (typeof VAULT_USES)[number];

const SELECT = 'h-10 rounded-xl border border-border bg-surface px-3 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent outline-none';

type Props = { kind: MediaKind | ''; onKind: (kind: MediaKind | '') => void; used: VaultUse | ''; onUsed: (used: VaultUse | '') => void };

/** The vault's two filters: the file's kind and where it is used. */
export function VaultFilters({ kind, onKind, used, onUsed }: Props) {
  return (
    <div className="flex flex-wrap gap-3">
      <label className="flex flex-col gap-1 text-xs text-muted">
        {T.kindFilter}
        <select className={SELECT} value={kind} onChange={(e) => onKind(e.target.value as MediaKind | '')}>
          <option value="">{T.anyKind}</option>
          {MEDIA_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-muted">
        {T.usedFilter}
        <select className={SELECT} value={used} onChange={(e) => onUsed(e.target.value as VaultUse | '')}>
          <option value="">{T.anyUse}</option>
          {VAULT_USES.map((u) => (
            <option key={u} value={u}>
              {T.uses[u]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
