import { HandCoins } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button, type ButtonProps } from '../../components/ui/button';
import type { TipTarget } from './tip-dialog';

// the dialog (and its form) loads on the first press: the post card is on the landing page's budget
const TipDialog = lazy(() => import('./tip-dialog'));

/** 'Tip': opens the tip dialog for this creator (a post, the profile, a chat). */
export function TipButton({ target, label = 'Tip', ...props }: { target: TipTarget; label?: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" onClick={() => setOpen(true)} aria-label={`Tip ${target.name}`} {...props}>
        <HandCoins aria-hidden="true" className="size-4" />
        {label}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <TipDialog target={target} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
