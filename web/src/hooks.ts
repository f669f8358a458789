import { useEffect, useRef, useState } from 'react';

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Deskbook`;
  }, [title]);
}

/** Whether a CSS media query matches, following changes (window resized, phone turned). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const change = () => setMatches(list.matches);
    change();
    list.addEventListener('change', change);
    return () => list.removeEventListener('change', change);
  }, [query]);
  return matches;
}

/**
 * A URL for showing a blob (an image read with the token, which an <img src> could not send),
 * released when the blob changes or the component goes.
 */
export function useObjectUrl(blob: Blob | null | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/**
 * A search box's text once typing pauses (300 ms), trimmed, so that a list or a picker asks the
 * server once per pause rather than per key; `onSettled` runs with each new text (a paged list goes
 * back to its first page).
 */
export function useSettledSearch(query: string, onSettled?: () => void): string {
  const [search, setSearch] = useState('');
  const settled = useRef(onSettled);
  settled.current = onSettled;
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query.trim());
      settled.current?.();
    }, 300);
    return () => clearTimeout(timer);
  }, [query]);
  return search;
}
