import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSettings } from '../api/settings.js';
import { imageAccept, imageRefusal, uploadRefusal } from '../lib/images.js';
import { problemMessage, problemOf } from '../lib/problems.js';

export interface ImageMessage {
  kind: 'success' | 'error';
  text: string;
}

/**
 * Upload and removal of a picture (avatar, office picture): busy flag, the message to show and the
 * file input, which is cleared after each upload so the same file can be chosen again. The file is
 * checked against the limits the service publishes before it is sent.
 */
export function useImageUpload({
  upload,
  remove,
  invalidates,
  uploaded,
  removed,
  uploadSubject,
  removeSubject,
}: {
  upload: (file: File) => Promise<unknown>;
  remove: () => Promise<unknown>;
  /** What a change of the picture makes stale (api/query.ts, STALE_AFTER). */
  invalidates: readonly string[];
  /** Success messages. */
  uploaded: string;
  removed: string;
  /** "This office": used in failure messages. */
  uploadSubject: string;
  removeSubject: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<ImageMessage>();
  const limits = useSettings();
  const failed = (subject: string) => (error: unknown) => {
    const problem = problemOf(error);
    setMessage({ kind: 'error', text: uploadRefusal(problem, limits) ?? problemMessage(problem, subject) });
  };
  const uploading = useMutation({
    mutationFn: upload,
    meta: { invalidates },
    onMutate: () => setMessage(undefined),
    onSuccess: () => setMessage({ kind: 'success', text: uploaded }),
    onError: failed(uploadSubject),
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });
  const removing = useMutation({
    mutationFn: remove,
    meta: { invalidates },
    onMutate: () => setMessage(undefined),
    onSuccess: () => setMessage({ kind: 'success', text: removed }),
    onError: failed(removeSubject),
  });

  const uploadFile = (file: File | undefined) => {
    if (!file) return;
    const refused = imageRefusal(file, limits);
    if (refused) {
      if (input.current) input.current.value = '';
      return setMessage({ kind: 'error', text: refused });
    }
    uploading.mutate(file);
  };

  return { input, message, limits, busy: uploading.isPending || removing.isPending, upload: uploadFile, remove: () => removing.mutate() };
}

/** The file button ("Upload a picture" or `replaceLabel` once there is one) and, with a picture, "Remove the picture". */
export function ImageButtons({ image, present, replaceLabel }: { image: ReturnType<typeof useImageUpload>; present: boolean; replaceLabel: string }) {
  return (
    <>
      <label className="button button-secondary file-button">
        {image.busy ? 'Working…' : present ? replaceLabel : 'Upload a picture'}
        <input ref={image.input} type="file" accept={imageAccept(image.limits)} className="visually-hidden" disabled={image.busy} onChange={(event) => image.upload(event.target.files?.[0])} />
      </label>
      {present && (
        <button type="button" className="button-link" onClick={image.remove} disabled={image.busy}>
          Remove the picture
        </button>
      )}
    </>
  );
}
