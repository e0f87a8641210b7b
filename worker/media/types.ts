import type { MediaKind, MediaVariant } from '../../common/enums';

/** One file the pipeline wrote to its work directory, to be stored as posts/<postId>/<variant>.<ext>. */
export interface OutputFile {
  variant: MediaVariant;
  path: string;
  ext: string;
  contentType: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

export interface ProcessedMedia {
  mediaKind: MediaKind;
  files: OutputFile[];
}

/** Called with 0-100 while a long step runs. */
export type ProgressFn = (percent: number) => void;
