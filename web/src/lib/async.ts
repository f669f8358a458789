/** The state of something loaded from the API: loading, ready or failed, keeping old data while reloading. */

export type AsyncState<T> =
  | { status: 'loading'; data?: T; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'failed'; data?: T; error: string };

export type AsyncAction<T> = { type: 'start' } | { type: 'done'; data: T } | { type: 'failed'; error: string } | { type: 'update'; update: (data: T) => T };

export function asyncReducer<T>(state: AsyncState<T>, action: AsyncAction<T>): AsyncState<T> {
  switch (action.type) {
    case 'start':
      return { status: 'loading', data: state.data };
    case 'done':
      return { status: 'ready', data: action.data };
    case 'failed':
      return { status: 'failed', data: state.data, error: action.error };
    case 'update':
      // A local change (an item edited or removed) applied without reloading.
      return state.data === undefined ? state : { ...state, data: action.update(state.data) } as AsyncState<T>;
  }
}
