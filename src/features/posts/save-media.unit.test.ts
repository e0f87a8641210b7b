import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './save-media';

describe('fileNameFromDisposition', () => {
  it('reads the quoted, bare and RFC 5987 forms', () => {
    expect(fileNameFromDisposition('attachment; filename="groove-breakdown.mp4"')).toBe('groove-breakdown.mp4');
    expect(fileNameFromDisposition('attachment; filename=notes.txt')).toBe('notes.txt');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''caf%C3%A9.jpg")).toBe('café.jpg');
  });
  it('never returns a path, and null without a name', () => {
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('inline')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
