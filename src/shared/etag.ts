/** Whether an If-None-Match (or If-Match) header names `etag`, weakly or strongly, or is `*`. */
export const etagMatches = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()));
