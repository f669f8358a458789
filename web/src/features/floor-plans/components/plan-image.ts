import { useEffect, useState } from 'react';
import { usePicture } from '../../../api/pictures.js';
import { useObjectUrl } from '../../../hooks.js';

/** The size a plan is drawn at when its office has no image yet (an empty sheet). */
export const SHEET = { width: 1000, height: 700 };

export interface PlanImage {
  url: string | undefined;
  width: number;
  height: number;
  /** True while the image is still being read or measured. */
  loading: boolean;
}

/** The office image as an object URL and its natural size (the plan's coordinate system). */
export function usePlanImage(departmentId: string, hasImage: boolean): PlanImage {
  const picture = usePicture({ kind: 'department', departmentId }, { enabled: hasImage });
  const url = useObjectUrl(hasImage ? picture.data : null);
  const [size, setSize] = useState<{ url: string; width: number; height: number }>();
  useEffect(() => {
    if (!url) return;
    const image = new Image();
    image.onload = () => setSize({ url, width: image.naturalWidth, height: image.naturalHeight });
    image.src = url;
  }, [url]);
  if (!hasImage) return { url: undefined, ...SHEET, loading: false };
  if (!url || size?.url !== url) return { url: undefined, ...SHEET, loading: true };
  return { url, width: size.width, height: size.height, loading: false };
}
