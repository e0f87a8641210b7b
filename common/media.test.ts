import { describe, expect, it } from 'vitest';
import { downloadFileName, extensionForContentType, slugifyTitle } from './media';

describe('download file names', () => {
  it('takes the extension from the content type', () => {
    expect(extensionForContentType('image/jpeg')).toBe('jpg');
    expect(extensionForContentType('image/png')).toBe('png');
    expect(extensionForContentType('video/mp4')).toBe('mp4');
    expect(extensionForContentType('application/pdf')).toBe('pdf');
    expect(extensionForContentType('text/plain; charset=utf-8')).toBe('txt');
    expect(extensionForContentType('application/x-unknown')).toBe('bin');
  });

  it('slugs the title to safe ASCII and falls back to the post id', () => {
    expect(slugifyTitle('  Café at Dawn — Part 2!  ')).toBe('cafe-at-dawn-part-2');
    expect(slugifyTitle('"quoted"; filename=evil.exe')).toBe('quoted-filename-evil-exe');
    expect(slugifyTitle('x'.repeat(79) + ' y')).toBe('x'.repeat(79));
    expect(downloadFileName('My Sunset', 'image/jpeg', 'abcdef12-0000')).toBe('my-sunset.jpg');
    expect(downloadFileName(null, 'video/mp4', 'abcdef12-0000')).toBe('post-abcdef12.mp4');
    expect(downloadFileName('!!!', 'application/pdf', 'abcdef12-0000')).toBe('post-abcdef12.pdf');
  });
});
