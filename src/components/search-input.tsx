import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { PROFILE_LIMITS } from '../../common/limits';
import { cn } from '../lib/cn';
import { useDebouncedCallback } from '../lib/use-debounced-callback';

interface SearchInputProps {
  /** the search in force (from the URL) */
  value: string;
  /** called `debounceMs` after the last keystroke, at once on Enter and on clearing */
  onSearch: (value: string) => void;
  debounceMs: number;
  /** the accessible name, also the search landmark's */
  label: string;
  placeholder?: string;
  className?: string;
}

/**
 * A search box in a `search` landmark: what is typed goes out debounced; Enter searches at once;
 * the clear button (and Escape) empties it. A new `value` from outside (a hashtag link, Back)
 * replaces the text, unless it is only the echo of what this box sent.
 */
export function SearchInput({ value, onSearch, debounceMs, label, placeholder, className }: SearchInputProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const debounced = useDebouncedCallback((next: string) => {
    sent.current = next.trim();
    onSearch(next.trim());
  }, debounceMs);

  const { cancel } = debounced;
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    cancel();
    setText(value);
  }, [value, cancel]);

  const clear = () => {
    setText('');
    debounced.call('');
    debounced.flush();
    inputRef.current?.focus();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    debounced.call(text);
    debounced.flush();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && text) {
      event.preventDefault();
      clear();
    }
  };

  return (
    <form role="search" aria-label={label} onSubmit={onSubmit} className={cn('relative', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-subtle" />
      <input
        ref={inputRef}
        id={id}
        type="search"
        value={text}
        maxLength={PROFILE_LIMITS.searchMaxLength}
        placeholder={placeholder}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => {
          setText(event.target.value);
          debounced.call(event.target.value);
        }}
        onKeyDown={onKeyDown}
        className={cn(
          'h-11 w-full rounded-full border border-border bg-surface pr-11 pl-10 text-sm text-foreground placeholder:text-subtle',
          'transition-colors outline-none hover:border-border-strong focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
          '[&::-webkit-search-cancel-button]:hidden',
        )}
      />
      {text ? (
        <button
          type="button"
          onClick={clear}
          aria-label="Clear search"
          className="absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 items-center justify-center rounded-full text-muted transition-colors hover:bg-surface-hover hover:text-foreground"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      ) : null}
    </form>
  );
}
