import { describe, expect, it } from 'vitest';
import { MediaSettingsInput, watermarkLabel } from './media-settings';
import { checkUploadFile, fileExtension, parseHashtags, toUploadMetadata, UPLOAD_ACCEPT, UPLOAD_EXTENSIONS, UploadMetadata, uploadRuleFor } from './uploads';

const MB = 1024 * 1024;

describe('upload rules (spec part 2 §5, §9)', () => {
  it('allows exactly the spec list of extensions, case-insensitively', () => {
    expect(UPLOAD_EXTENSIONS).toEqual(['jpg', 'jpeg', 'png', 'webp', 'gif', 'svg', 'mp4', 'webm', 'mov', 'avi', 'mp3', 'wav', 'ogg', 'pdf', 'doc', 'docx', 'txt']);
    expect(UPLOAD_ACCEPT.startsWith('.jpg,.jpeg,')).toBe(true);
    expect(uploadRuleFor('Holiday.JPG')).toMatchObject({ ext: 'jpg', category: 'image', mediaKind: 'image', maxMb: 10 });
    expect(uploadRuleFor('a.pdf')).toMatchObject({ mediaKind: 'pdf', category: 'document', maxMb: 20 });
    for (const name of ['a.exe', 'a', '.jpg', 'a.jpg.exe', 'a.constructor', 'a.toString']) expect(uploadRuleFor(name), name).toBeNull();
    expect(fileExtension('C:\\photos\\x.tar.gz')).toBe('gz');
  });

  it('refuses in the spec words: invalid type, and too large with the limit of the kind', () => {
    expect(checkUploadFile({ name: 'a.exe', size: 1 })).toMatchObject({
      ok: false,
      reason: 'invalid-type',
      toast: { title: 'Invalid file type', description: 'Please upload a supported file type.' },
    });
    const limits = { 'v.mov': 100, 'i.webp': 10, 'a.ogg': 50, 'd.docx': 20 } as const;
    for (const [name, mb] of Object.entries(limits)) {
      expect(checkUploadFile({ name, size: mb * MB }).ok, name).toBe(true);
      expect(checkUploadFile({ name, size: mb * MB + 1 }), name).toMatchObject({
        ok: false,
        reason: 'too-large',
        toast: { title: 'File too large', description: `Maximum file size is ${mb}MB` },
      });
    }
  });

  it('collects hashtags from the field and the text, normalised', () => {
    expect(parseHashtags('#Art, travel  #art,,#new_york!', 'Off to #NewYork and #travel')).toEqual(['art', 'travel', 'new_york', 'newyork']);
    expect(parseHashtags(null, null)).toEqual([]);
    expect(parseHashtags(Array.from({ length: 30 }, (_, i) => `t${i}`).join(' '))).toHaveLength(20);
  });

  it('parses tus metadata (strings) with defaults, and builds it from the form', () => {
    const meta = toUploadMetadata({ filename: 'a.jpg', hashtags: ['x', 'y'], isPaidContent: true, isNsfw: false, status: 'draft', optimisticId: 'o-1' });
    expect(meta).toEqual({ filename: 'a.jpg', hashtags: 'x y', isPaidContent: 'true', isNsfw: 'false', status: 'draft', optimisticId: 'o-1' });
    expect(UploadMetadata.parse(meta)).toMatchObject({ filename: 'a.jpg', isPaidContent: true, isNsfw: false, status: 'draft' });
    expect(UploadMetadata.parse({ filename: '../../etc/x.png', status: null, userId: 'spoofed' })).toEqual({
      filename: 'x.png',
      isPaidContent: false,
      isNsfw: false,
      status: 'published',
    });
    expect(UploadMetadata.safeParse({ filename: 'a.jpg', optimisticId: 'has space' }).success).toBe(false);
  });
});

describe('media settings', () => {
  it('trims the watermark text to null when empty, and falls back to @username', () => {
    expect(MediaSettingsInput.parse({ watermarkEnabled: true, watermarkText: '  ', watermarkPosition: 'top-right' }).watermarkText).toBeNull();
    expect(MediaSettingsInput.safeParse({ watermarkEnabled: true, watermarkText: 'x'.repeat(51), watermarkPosition: 'center' }).success).toBe(false);
    expect(watermarkLabel({ watermarkText: null }, 'alice')).toBe('@alice');
    expect(watermarkLabel({ watermarkText: 'Studio' }, 'alice')).toBe('Studio');
  });
});
