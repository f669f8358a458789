import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { asyncReducer, type AsyncState } from './lib/async.js';
import { problemMessage, problemOf } from './lib/problems.js';

/**
 * Loads something when the inputs in `deps` change; answers its state and a reload function.
 * Answers that arrive after a newer load started are dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], subject?: string) {
  const [state, dispatch] = useReducer(asyncReducer<T>, { status: 'loading' } as AsyncState<T>);
  const generation = useRef(0);
  // The loader is fixed by deps, like a useEffect body.
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    dispatch({ type: 'start' });
    try {
      const data = await run();
      if (mine === generation.current) dispatch({ type: 'done', data });
    } catch (error) {
      if (mine === generation.current) dispatch({ type: 'failed', error: problemMessage(problemOf(error), subject) });
    }
  }, [run, subject]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const update = useCallback((change: (data: T) => T) => dispatch({ type: 'update', update: change }), []);
  return { state, reload, update };
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Deskbook`;
  }, [title]);
}

/** Busy flag and readable failure of a form's action; `run` reports whether the action succeeded. */
export function useAction(subject?: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(
    async (action: () => Promise<unknown>): Promise<boolean> => {
      setBusy(true);
      setError(undefined);
      try {
        await action();
        return true;
      } catch (failure) {
        setError(problemMessage(problemOf(failure), subject));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [subject],
  );
  return { busy, error, run, setError };
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
