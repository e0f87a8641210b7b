import { QUICK_EMOJI } from '../../../common/messages';
import { EMOJI_NAMES } from './message-bubble';

/** The spec's 8 quick emoji (part 2 §2), each inserted where the caret is. */
export function QuickEmojiBar({ onPick }: { onPick: (emoji: string) => void }) {
  return (
    <div role="group" aria-label="Quick emoji" className="flex gap-0.5 overflow-x-auto">
      {QUICK_EMOJI.map((emoji) => (
        <button
          key={emoji}
          type="button"
          aria-label={`Insert ${EMOJI_NAMES[emoji]}`}
          onClick={() => onPick(emoji)}
          className="flex size-9 shrink-0 items-center justify-center rounded-full text-lg transition-colors hover:bg-surface-hover"
        >
          {emoji}
        </button>
      ))}
    </div>
  );
}
