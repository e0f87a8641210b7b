import { describe, expect, it } from 'vitest';
import { formatDayLabel, formatMessageTime, formatPreviewTime } from './message-format';
import { splitLinks } from './message-links';

describe('message times', () => {
  it('writes the thread time as HH:mm and the chat list time as month day, hour:minute', () => {
    expect(formatMessageTime(new Date(2025, 2, 14, 9, 5))).toBe('09:05');
    expect(formatMessageTime(new Date(2025, 2, 14, 16, 45))).toBe('16:45');
    expect(formatPreviewTime(new Date(2025, 2, 14, 16, 5))).toBe('Mar 14, 16:05');
  });

  it('names today and yesterday between messages', () => {
    const now = new Date(2025, 5, 15, 12);
    expect(formatDayLabel(new Date(2025, 5, 15, 1), now)).toBe('Today');
    expect(formatDayLabel(new Date(2025, 5, 14, 23), now)).toBe('Yesterday');
    expect(formatDayLabel(new Date(2025, 2, 14), now)).toBe('Mar 14, 2025');
  });
});

describe('links in message text', () => {
  it('turns http(s) and www. addresses into links and leaves the rest as text', () => {
    expect(splitLinks('see https://example.com/a?b=1, and www.test.org.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ', and ' },
      { kind: 'link', text: 'www.test.org', href: 'https://www.test.org/' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('never makes a link of another scheme or of markup', () => {
    const text = 'javascript:alert(1) <a href="x">y</a> data:text/html,hi';
    expect(splitLinks(text)).toEqual([{ kind: 'text', text }]);
    expect(splitLinks('https://user:pw@evil.com')).toEqual([{ kind: 'text', text: 'https://user:pw@evil.com' }]);
  });
});

describe('chat attachments chosen in the browser', () => {
  it('takes the spec’s kinds by extension and refuses the rest', async () => {
    const { attachmentKindOf, isTooLarge } = await import('./attachment-kind');
    expect(attachmentKindOf('Holiday.JPG')).toBe('image');
    expect(attachmentKindOf('clip.mov')).toBe('video');
    expect(attachmentKindOf('note.ogg')).toBe('audio');
    expect(attachmentKindOf('cv.pdf')).toBe('pdf');
    expect(attachmentKindOf('letter.docx')).toBe('document');
    expect(attachmentKindOf('drawing.svg')).toBeNull();
    expect(attachmentKindOf('notes.txt')).toBeNull();
    expect(attachmentKindOf('noextension')).toBeNull();
    expect(isTooLarge({ size: 10 * 1024 * 1024 })).toBe(false);
    expect(isTooLarge({ size: 10 * 1024 * 1024 + 1 })).toBe(true);
  });
});
