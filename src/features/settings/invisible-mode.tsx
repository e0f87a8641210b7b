import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { notify } from '../../lib/toast';
import { ToggleRow } from './toggle-row';

/**
 * /settings/account/invisible (spec part 2 §2): the switch only says 'Coming Soon' / 'Invisible
 * mode will be available soon.'; it stays off and nothing is saved.
 */
export function InvisibleMode() {
  return (
    <div className="flex flex-col gap-6">
      <div className="rounded-card border border-border bg-surface">
        <ToggleRow
          label={SETTINGS_TEXTS.invisible}
          hint="Browse without being seen online."
          checked={false}
          onChange={() => notify.info(SETTINGS_TEXTS.comingSoon)}
        />
      </div>
      <p className="text-sm text-muted">
        When invisible mode is active, your online status and activity status are hidden, and you do not appear in the online users list.
      </p>
    </div>
  );
}
