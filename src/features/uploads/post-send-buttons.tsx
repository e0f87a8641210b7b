import { CalendarClock, Save, Send } from 'lucide-react';
import { useState } from 'react';
import { ScheduleFields } from '../../components/schedule-fields';
import { Button } from '../../components/ui/button';
import type { PostStatusChoice } from './upload-machine';

interface PostSendButtonsProps {
  /** a file is picked: without one, nothing can be sent */
  hasFile: boolean;
  busy: boolean;
  /** whether the upload under way was sent with this button */
  sendingAs: (choice: PostStatusChoice) => boolean;
  onSend: (choice: PostStatusChoice, at?: Date) => void;
}

/** Schedule (it opens the date and time; the post is sent once they are chosen), Save as Draft and Publish (the form's submit). */
export function PostSendButtons({ hasFile, busy, sendingAs, onSend }: PostSendButtonsProps) {
  const [scheduling, setScheduling] = useState(false);
  // sent ('Post scheduled') or its file removed: the form is empty again, and the panel closes with it
  if (scheduling && !hasFile) setScheduling(false);
  return (
    <>
      {scheduling ? <ScheduleFields confirmLabel="Schedule post" busy={sendingAs('scheduled')} disabled={!hasFile || busy} onConfirm={(at) => onSend('scheduled', at)} /> : null}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" size="lg" disabled={!hasFile || busy} aria-expanded={scheduling} onClick={() => setScheduling((open) => !open)}>
          <CalendarClock aria-hidden="true" className="size-4" />
          Schedule
        </Button>
        <Button variant="secondary" size="lg" disabled={!hasFile || busy} loading={sendingAs('draft')} onClick={() => onSend('draft')}>
          {sendingAs('draft') ? null : <Save aria-hidden="true" className="size-4" />}
          Save as Draft
        </Button>
        <Button type="submit" size="lg" disabled={!hasFile || busy} loading={sendingAs('published')}>
          {sendingAs('published') ? null : <Send aria-hidden="true" className="size-4" />}
          Publish
        </Button>
      </div>
    </>
  );
}
