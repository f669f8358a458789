import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A small History-API router: the server answers index.html for every page path. */

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * Pages with unsaved work (the plan editor) block leaving them: each holds the question to ask.
 * A link or navigate() asks first; the browser's back and forward buttons too (the address is put
 * back when the person stays); closing or reloading the tab gets the browser's own question
 * (docs/behaviour.md#the-map-and-the-plan-editor-web-app).
 */
const blockers = new Set<{ question: string }>();
const mayLeave = () => {
  const [blocker] = blockers;
  return blocker === undefined || window.confirm(blocker.question);
};
let shown = window.location.pathname + window.location.search;
window.addEventListener('popstate', () => {
  const next = window.location.pathname + window.location.search;
  if (next !== shown && !mayLeave()) {
    window.history.pushState(null, '', shown);
    return;
  }
  shown = next;
  notify();
});
window.addEventListener('beforeunload', (event) => {
  if (blockers.size > 0) event.preventDefault();
});

/** While `when`, leaving the page asks `question` first (see blockers). */
export function useLeaveGuard(when: boolean, question: string): void {
  useEffect(() => {
    if (!when) return;
    const blocker = { question };
    blockers.add(blocker);
    return () => {
      blockers.delete(blocker);
    };
  }, [when, question]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => window.location.pathname + window.location.search;

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (!mayLeave()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  shown = snapshot();
  window.scrollTo(0, 0);
  notify();
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    // New tabs and windows (modifier keys, middle button) are left to the browser.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...rest} />;
}
