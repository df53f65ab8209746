/** A scope or event name as a text key: i18next reads '.' and ':' as separators. */
export const textKey = (name: string) => name.replace(/[.:]/g, '_');
