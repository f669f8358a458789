/**
 * The page envelope of docs/api.md#page-envelope, written out independently of src/ so that tests check
 * the contract rather than the code's own idea of it.
 */

export const PAGE_KEYS = ['content', 'empty', 'first', 'last', 'number', 'numberOfElements', 'pageable', 'size', 'sort', 'totalElements', 'totalPages'];
export const PAGEABLE_KEYS = ['offset', 'pageNumber', 'pageSize', 'paged', 'sort', 'unpaged'];
export const SORT_KEYS = ['ascending', 'direction', 'ignoreCase', 'nullHandling', 'property'];

export interface SortItem {
  direction: string;
  nullHandling: string;
  ascending: boolean;
  property: string;
  ignoreCase: boolean;
}

export interface Page<T> {
  totalElements: number;
  totalPages: number;
  size: number;
  content: T[];
  number: number;
  sort: SortItem[];
  first: boolean;
  last: boolean;
  numberOfElements: number;
  pageable: { offset: number; sort: SortItem[]; pageSize: number; pageNumber: number; paged: boolean; unpaged: boolean };
  empty: boolean;
}
