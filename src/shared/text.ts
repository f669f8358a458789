/** A LIKE/ILIKE pattern that matches `text` as a literal substring (`%`, `_` and `\` escaped). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its text form (any case), checked before a value gets near SQL. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
