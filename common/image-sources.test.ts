import { describe, expect, it } from 'vitest';
import { imageSources } from './image-sources';

const media = (over: Partial<{ url: string | null; thumbUrl: string | null; mediumUrl: string | null; width: number | null }> = {}) => ({
  url: '/media/p1/web',
  thumbUrl: '/media/p1/thumb',
  mediumUrl: '/media/p1/medium',
  width: 1080,
  ...over,
});

describe('imageSources', () => {
  it('offers the 320, 720 and 1080 px sizes with the box as sizes', () => {
    expect(imageSources(media(), 'feed')).toEqual({
      src: '/media/p1/web',
      srcSet: '/media/p1/thumb 320w, /media/p1/medium 720w, /media/p1/web 1080w',
      sizes: '(min-width: 768px) 624px, calc(100vw - 32px)',
    });
  });

  it('lists only the sizes a file has: one made before the medium size keeps its thumb and web', () => {
    expect(imageSources(media({ mediumUrl: null }), 'detail')?.srcSet).toBe('/media/p1/thumb 320w, /media/p1/web 1080w');
  });

  it('gives the web size its own width, and leaves out sizes no smaller than it', () => {
    expect(imageSources(media({ width: 900 }), 'tile')?.srcSet).toBe('/media/p1/thumb 320w, /media/p1/medium 720w, /media/p1/web 900w');
    expect(imageSources(media({ width: 700 }), 'tile')?.srcSet).toBe('/media/p1/thumb 320w, /media/p1/web 700w');
    expect(imageSources(media({ width: 300 }), 'tile')).toEqual({ src: '/media/p1/web', srcSet: undefined, sizes: undefined });
  });

  it('has nothing to show without the picture', () => {
    expect(imageSources(media({ url: null }), 'feed')).toBeNull();
  });
});
