import path from 'node:path';

/**
 * How every ffmpeg and ffprobe run of the worker opens a file. An upload is hostile: left to
 * probe, ffmpeg takes a text file for an HLS playlist, a DASH manifest or an ffconcat list and
 * reads the files it names (another creator's original in storage), and a leading ID3 tag or a
 * fake MP4 box is enough to get such a file past the byte sniffer. So the demuxer is never
 * ffmpeg's guess: it comes from the sniffed type, only that demuxer may open anything
 * (format_whitelist, which also covers what a demuxer would open by itself), the only protocol is
 * the local file given as an absolute path, and the mov demuxer's external data references are
 * off. Pure: builds arguments, runs nothing.
 */

/** `-f` name → the format_name ffprobe reports for a file that demuxer opened. */
export const DEMUXERS = {
  mov: 'mov,mp4,m4a,3gp,3g2,mj2',
  matroska: 'matroska,webm',
  avi: 'avi',
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg',
  /** the watermark the worker drew itself */
  png_pipe: 'png_pipe',
} as const;
export type Demuxer = keyof typeof DEMUXERS;

/** file-type's extension for the bytes (sniff.ts) → the demuxer for them. Anything else is not opened by ffmpeg. */
const BY_SNIFFED_TYPE: Readonly<Record<string, Demuxer>> = {
  mp4: 'mov',
  m4v: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  webm: 'matroska',
  mkv: 'matroska',
  avi: 'avi',
  mp3: 'mp3',
  wav: 'wav',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  spx: 'ogg',
  ogx: 'ogg',
};

export function demuxerForSniffedType(detected: string | null): Demuxer | null {
  return detected !== null && Object.prototype.hasOwnProperty.call(BY_SNIFFED_TYPE, detected) ? BY_SNIFFED_TYPE[detected]! : null;
}

/** The arguments that open `file` as input (they end with `-i file`); throws for a path that is not a plain absolute one. */
export function ffmpegInputArgs(file: string, demuxer: Demuxer): string[] {
  return [...ffmpegInputOptions(file, demuxer), '-i', file];
}

/** The same without the `-i file` itself: fluent-ffmpeg's `.input(file).inputOptions(...)` places them before it. */
export function ffmpegInputOptions(file: string, demuxer: Demuxer): string[] {
  // ffmpeg reads a path starting with '/' as the file protocol; a relative one could name another protocol ('data:', 'subfile,')
  const hasControl = [...file].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!path.posix.isAbsolute(file) || path.posix.normalize(file) !== file || hasControl) {
    throw new Error(`ffmpeg input must be a plain absolute path: ${JSON.stringify(file)}`);
  }
  if (!Object.prototype.hasOwnProperty.call(DEMUXERS, demuxer)) throw new Error(`unknown demuxer ${String(demuxer)}`);
  return [
    '-protocol_whitelist', 'file',
    '-format_whitelist', demuxer,
    '-f', demuxer,
    ...(demuxer === 'mov' ? ['-enable_drefs', '0', '-use_absolute_path', '0'] : []),
  ];
}

/** Whether ffprobe's format_name is the one the forced demuxer reports (anything else means it was not the one that read the file). */
export function formatNameMatches(demuxer: Demuxer, formatName: string | undefined): boolean {
  return formatName === DEMUXERS[demuxer];
}
