/** Below this width (Mantine `sm`) the panel is laid out for a phone: the side menu behind a burger, rows as cards. */
export const PHONE_QUERY = '(max-width: 47.99em)';
