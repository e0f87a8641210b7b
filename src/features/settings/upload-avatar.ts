import { LIMITS } from '../../../common/limits';
import { AVATAR_UPLOAD_PATH } from '../../../common/settings';
import { type ToastText } from '../../../common/texts';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';

/** Accepted by the file picker and checked here first; the server judges the bytes again. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/** What the browser can tell before sending: the spec's 'Invalid file type' / 'File too large'. */
export function avatarFileProblem(file: File): ToastText | null {
  if (!IMAGE_TYPES.has(file.type)) return { title: SETTINGS_TEXTS.invalidFileType, description: SETTINGS_TEXTS.avatarInvalidHint };
  if (file.size >= LIMITS.avatarBytes) return { title: SETTINGS_TEXTS.fileTooLarge, description: SETTINGS_TEXTS.avatarTooLargeHint };
  return null;
}

export class AvatarUploadError extends Error {
  constructor(public readonly text: ToastText) {
    super(text.title);
  }
}

/**
 * Sends the file's bytes to POST /avatar with upload progress (0..1). Resolves when the server
 * has accepted it for processing (202); rejects with the server's words otherwise.
 */
export function uploadAvatar(file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', AVATAR_UPLOAD_PATH);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 202) return resolve();
      let text: ToastText = { title: 'Error', description: SETTINGS_TEXTS.avatarFailed };
      try {
        const body = JSON.parse(xhr.responseText) as { error?: { message?: string; description?: string } };
        if (body.error?.message) text = { title: body.error.message, description: body.error.description };
      } catch {
        // not JSON: the generic words
      }
      reject(new AvatarUploadError(text));
    };
    xhr.onerror = () => reject(new AvatarUploadError({ title: 'Error', description: SETTINGS_TEXTS.avatarFailed }));
    xhr.send(file);
  });
}
