/**
 * Published uploads that go on after their form is gone: a publish whose bytes are on their way
 * when the creator leaves /create keeps going (its card in the feed says 'Uploading N%'), and
 * closing the tab meanwhile asks first. Module state on purpose: it outlives the form that
 * started the upload. Such an upload is not offered back to the form as unfinished while it is
 * still sending.
 */
const sendingInBackground = new Set<string>();
const askBeforeClosing = (event: BeforeUnloadEvent) => event.preventDefault();

export function holdTab(optimisticId: string): void {
  sendingInBackground.add(optimisticId);
  if (sendingInBackground.size === 1) window.addEventListener('beforeunload', askBeforeClosing);
}

export function releaseTab(optimisticId: string): void {
  if (sendingInBackground.delete(optimisticId) && sendingInBackground.size === 0) window.removeEventListener('beforeunload', askBeforeClosing);
}

export function isSendingInBackground(optimisticId: string | undefined): boolean {
  return !!optimisticId && sendingInBackground.has(optimisticId);
}
