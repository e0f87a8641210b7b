import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function onPath(binary: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

const warned = new Set<string>();

/**
 * FFMPEG_PATH (or FFPROBE_PATH), else the binary on PATH, else the one bundled by the
 * @ffmpeg-installer / @ffprobe-installer npm packages: those are old static builds, which is
 * why they come last and why using them prints a warning (once per process).
 */
function resolveBinary(binary: 'ffmpeg' | 'ffprobe', envVar: string, npmPackage: string, env: NodeJS.ProcessEnv): string {
  const fromEnv = env[envVar];
  if (fromEnv) return fromEnv;
  const found = onPath(binary, env);
  if (found) return found;
  let bundled: string;
  try {
    bundled = (require(npmPackage) as { path: string }).path;
  } catch {
    throw new Error(`${binary} not found: install it (apt install ffmpeg) or set ${envVar}`);
  }
  if (!warned.has(binary)) {
    warned.add(binary);
    console.warn(`${binary} is not on PATH: using the old build bundled by ${npmPackage} (${bundled}); set ${envVar} to choose another`);
  }
  return bundled;
}

export function resolveFfmpegPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg', env);
}

export function resolveFfprobePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffprobe', 'FFPROBE_PATH', '@ffprobe-installer/ffprobe', env);
}
