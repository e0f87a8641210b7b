import { lazy, Suspense } from 'react';
import type { MessageAttachmentDto } from '../../common/message-dtos';

// the picker's code loads the first time a creator opens it
const VaultPicker = lazy(() => import('./vault-picker'));

/** The vault picker (./vault-picker.tsx), mounted and loaded only while open. */
export function LazyVaultPicker({ open, onOpenChange, onPicked }: { open: boolean; onOpenChange: (open: boolean) => void; onPicked: (attachment: MessageAttachmentDto) => void }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <VaultPicker open={open} onOpenChange={onOpenChange} onPicked={onPicked} />
    </Suspense>
  );
}
