import { useRef, useState } from 'react';
import { problemMessage, problemOf } from '../lib/problems.js';
import { validateImage } from '../lib/validation.js';

export interface ImageMessage {
  kind: 'success' | 'error';
  text: string;
}

/**
 * Upload and removal of a picture (avatar, office picture): busy flag, the message to show and the
 * file input, which is cleared after each upload so the same file can be chosen again.
 * `upload` and `remove` send the request and update the caller's state; a failure in either is shown.
 */
export function useImageUpload({
  upload,
  remove,
  uploaded,
  removed,
  uploadSubject,
  removeSubject,
}: {
  upload: (file: File) => Promise<unknown>;
  remove: () => Promise<unknown>;
  /** Success messages. */
  uploaded: string;
  removed: string;
  /** "This office": used in failure messages. */
  uploadSubject: string;
  removeSubject: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<ImageMessage>();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<unknown>, success: string, subject: string) => {
    setBusy(true);
    setMessage(undefined);
    try {
      await action();
      setMessage({ kind: 'success', text: success });
    } catch (error) {
      setMessage({ kind: 'error', text: problemMessage(problemOf(error), subject) });
    } finally {
      setBusy(false);
    }
  };

  const uploadFile = async (file: File | undefined) => {
    if (!file) return;
    const refused = validateImage(file);
    if (refused) return setMessage({ kind: 'error', text: refused });
    try {
      await run(() => upload(file), uploaded, uploadSubject);
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  return { input, message, busy, upload: uploadFile, remove: () => run(remove, removed, removeSubject) };
}

/** The file button ("Upload a picture" or `replaceLabel` once there is one) and, with a picture, "Remove the picture". */
export function ImageButtons({ image, present, replaceLabel }: { image: ReturnType<typeof useImageUpload>; present: boolean; replaceLabel: string }) {
  return (
    <>
      <label className="button button-secondary file-button">
        {image.busy ? 'Working…' : present ? replaceLabel : 'Upload a picture'}
        <input ref={image.input} type="file" accept="image/png,image/jpeg,image/webp" className="visually-hidden" disabled={image.busy} onChange={(event) => void image.upload(event.target.files?.[0])} />
      </label>
      {present && (
        <button type="button" className="button-link" onClick={() => void image.remove()} disabled={image.busy}>
          Remove the picture
        </button>
      )}
    </>
  );
}
