import { describe, expect, it } from 'vitest';
import { ladderJob, ladderRungs, parseMaster, parseMediaPlaylist } from './hls-ladder';

describe('the ladder\'s rungs', () => {
  it('never makes a rung taller than the source, and keeps its shape', () => {
    const names = (w: number, h: number) => ladderRungs(w, h).map((r) => `${r.width}x${r.height}`);
    expect(names(1920, 1080)).toEqual(['640x360', '1280x720', '1920x1080']);
    expect(names(1280, 720)).toEqual(['640x360', '1280x720']);
    expect(names(854, 480)).toEqual(['640x360']);
    // upright: the short side is the width
    expect(names(1080, 1920)).toEqual(['360x640', '720x1280', '1080x1920']);
    // below the lowest rung: its own size, once
    expect(names(320, 240)).toEqual(['320x240']);
  });

  it('forces the same keyframe times in every rung and writes fMP4 segments of 2 s', () => {
    const job = ladderJob('/tmp/w/source.mp4', '/tmp/w/hls', ladderRungs(1280, 720), true, 25);
    const opt = (name: string) => job.options[job.options.indexOf(name) + 1];
    expect(opt('-force_key_frames')).toBe('expr:gte(t,n_forced*2)');
    expect(opt('-g')).toBe('50');
    expect(opt('-hls_segment_type')).toBe('fmp4');
    expect(opt('-hls_time')).toBe('2');
    expect(opt('-preset')).toBe('veryfast');
    expect(opt('-var_stream_map')).toBe('v:0,a:0,name:360 v:1,a:1,name:720');
    expect(job.inputs).toEqual([{ file: '/tmp/w/source.mp4', demuxer: 'mov' }]);
  });
});

describe('reading ffmpeg\'s playlists', () => {
  it('takes the init segment, the segments and their durations, and refuses a name that is not a plain file', () => {
    const text = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI="init_0.mp4"\n#EXTINF:2.000000,\nseg_0000.m4s\n#EXTINF:1.040000,\nseg_0001.m4s\n#EXT-X-ENDLIST\n';
    expect(parseMediaPlaylist(text)).toEqual({ init: 'init_0.mp4', targetDuration: 2, segments: [{ file: 'seg_0000.m4s', duration: 2 }, { file: 'seg_0001.m4s', duration: 1.04 }] });
    expect(() => parseMediaPlaylist('#EXTINF:2,\n../other/seg.m4s\n')).toThrow(/unexpected segment name/);
  });

  it('reads each stream\'s bandwidth, resolution and codecs from the master', () => {
    const master = parseMaster('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1130800,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"\n360/index.m3u8\n');
    expect(master.get('360/index.m3u8')).toEqual({ bandwidth: 1130800, width: 640, height: 360, codecs: 'avc1.64001e,mp4a.40.2' });
  });
});
