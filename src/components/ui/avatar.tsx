import { useState } from 'react';
import { cn } from '../../lib/cn';

type AvatarSize = 'sm' | 'md' | 'lg' | 'xl' | '2xl';

const sizes: Record<AvatarSize, string> = {
  sm: 'size-8 text-sm',
  md: 'size-10 text-base',
  lg: 'size-14 text-xl',
  xl: 'size-20 text-3xl',
  '2xl': 'size-24 text-4xl md:size-28 md:text-5xl',
};

/** The largest side each size draws, in CSS pixels: the image's intrinsic size (no layout shift). */
const pixels: Record<AvatarSize, number> = { sm: 32, md: 40, lg: 56, xl: 80, '2xl': 112 };

interface AvatarProps {
  src?: string | null;
  /** The person's display name; its first letter is the fallback. */
  name: string;
  size?: AvatarSize;
  className?: string;
  /** a ring in the page colour, separating the avatar from what is behind it */
  ring?: boolean;
}

/** A round picture, or the first letter of the name when there is none (or it fails to load). */
export function Avatar({ src, name, size = 'md', className, ring = true }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const letter = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full',
        'bg-gradient-accent font-semibold text-white',
        ring && 'ring-2 ring-canvas',
        sizes[size],
        className,
      )}
    >
      {src && !failed ? (
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          width={pixels[size]}
          height={pixels[size]}
          onError={() => setFailed(true)}
          className="size-full object-cover"
        />
      ) : (
        <span aria-hidden="true">{letter}</span>
      )}
    </span>
  );
}
