import { describe, expect, it } from 'vitest';
import { unlockSummary } from './premium-unlocks';

const counts = (c: Partial<Record<'image' | 'video' | 'audio' | 'pdf' | 'document', number>>) => {
  const all = { image: 0, video: 0, audio: 0, pdf: 0, document: 0, ...c };
  return { ...all, total: all.image + all.video + all.audio + all.pdf + all.document };
};

describe('what a subscription unlocks, in words', () => {
  it('names each kind with a count, PDFs and documents together', () => {
    expect(unlockSummary(counts({ image: 5, video: 2, pdf: 1, document: 2 }))).toBe('5 images, 2 videos and 3 documents');
    expect(unlockSummary(counts({ image: 1, document: 1 }))).toBe('1 image and 1 document');
    expect(unlockSummary(counts({ video: 1 }))).toBe('1 video');
  });

  it('says nothing when there is nothing to unlock', () => {
    expect(unlockSummary(counts({}))).toBe('');
  });
});
