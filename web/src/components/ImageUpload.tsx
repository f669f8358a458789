import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pictureRoutes, type PictureOf } from '../api/pictures.js';
import { useSettings } from '../api/settings.js';
import { imageAccept, imageRefusal, uploadRefusal } from '../lib/images.js';
import { problemMessage, problemOf } from '../lib/problems.js';

export interface ImageMessage {
  kind: 'success' | 'error';
  text: string;
}

/** What the picture editor says: after an upload, after a removal, and whose picture failed ("This office"). */
export interface ImageTexts {
  uploaded: string;
  removed: string;
  uploadSubject: string;
  removeSubject: string;
}

/**
 * Upload and removal of a picture (avatar, department picture): busy flag, the message to show and the
 * file input, which is cleared after each upload so the same file can be chosen again. The file is
 * checked against the limits the service publishes before it is sent.
 */
export function useImageUpload(of: PictureOf, texts: ImageTexts) {
  const routes = pictureRoutes(of);
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<ImageMessage>();
  const published = useSettings();
  // Office pictures (floor plans) take SVG too: the service draws it as a PNG (docs/behaviour.md#images).
  const limits = published && of.kind === 'department' ? { ...published, imageTypes: [...published.imageTypes, 'image/svg+xml'] } : published;
  const clearInput = () => {
    if (input.current) input.current.value = '';
  };
  const change = <T,>(send: (value: T) => Promise<unknown>, done: string, subject: string) => ({
    mutationFn: send,
    meta: { invalidates: routes.invalidates },
    onMutate: () => setMessage(undefined),
    onSuccess: () => setMessage({ kind: 'success', text: done }),
    onError: (error: unknown) => {
      const problem = problemOf(error);
      setMessage({ kind: 'error', text: uploadRefusal(problem, limits) ?? problemMessage(problem, subject) });
    },
    onSettled: clearInput,
  });
  const uploading = useMutation(change(routes.upload, texts.uploaded, texts.uploadSubject));
  const removing = useMutation(change(() => routes.remove(), texts.removed, texts.removeSubject));

  const upload = (file: File | undefined) => {
    if (!file) return;
    const refused = imageRefusal(file, limits);
    if (!refused) return uploading.mutate(file);
    clearInput();
    setMessage({ kind: 'error', text: refused });
  };

  return { input, message, limits, busy: uploading.isPending || removing.isPending, upload, remove: () => removing.mutate(undefined) };
}

/** The file button ("Upload a picture" or `replaceLabel` once there is one) and, with a picture, "Remove the picture". */
export function ImageButtons({ image, present, replaceLabel }: { image: ReturnType<typeof useImageUpload>; present: boolean; replaceLabel: string }) {
  const { t } = useTranslation('labels');
  return (
    <>
      <label className="button button-secondary file-button">
        {image.busy ? t('image.working') : present ? replaceLabel : t('image.upload')}
        <input
          ref={image.input}
          type="file"
          accept={imageAccept(image.limits)}
          className="visually-hidden"
          disabled={image.busy}
          onChange={(event) => image.upload(event.target.files?.[0])}
        />
      </label>
      {present && (
        <button type="button" className="button-link" onClick={image.remove} disabled={image.busy}>
          {t('image.remove')}
        </button>
      )}
    </>
  );
}
