import { useEffect, useState, type ComponentType } from 'react';
import type { ToasterProps } from 'sonner';
import { LIMITS } from '../../common/limits';
import { loadedSonner, loadSonner, onToasterWanted, toasterListening } from '../lib/toast';
import { whenIdle } from '../lib/when-idle';

/**
 * The app's toaster (sonner), mounted once the page has started and the browser is idle, or at
 * the first toast (lib/toast.ts): neither sonner's module nor its styles are part of the start-up
 * task, and the server renders no toaster (the browser's first render matches it).
 */
export function AppToaster() {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(() => loadedSonner()?.Toaster ?? null);

  useEffect(() => {
    let live = true;
    let asked = false;
    const mount = () => {
      if (asked) return;
      asked = true;
      loadSonner().then(
        (module) => {
          if (live) setToaster(() => module.Toaster);
        },
        () => {
          asked = false; // the next toast asks again
        },
      );
    };
    const stopWanted = onToasterWanted(mount);
    const cancelIdle = whenIdle(mount);
    return () => {
      live = false;
      stopWanted();
      cancelIdle();
    };
  }, []);

  if (!Toaster) return null;
  return (
    <>
      <Toaster
        theme="dark"
        position="bottom-right"
        richColors
        closeButton
        mobileOffset={{ bottom: 84 }}
        toastOptions={{ duration: LIMITS.toastMs, classNames: { description: 'whitespace-pre-line' } }}
      />
      <Listening />
    </>
  );
}

/** After the toaster's own effects (it subscribes to new toasts in one): toasts waiting may go. */
function Listening() {
  useEffect(() => toasterListening(), []);
  return null;
}
