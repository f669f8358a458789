/** A LIKE/ILIKE pattern that matches `text` as a literal substring (`%`, `_` and `\` escaped). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
