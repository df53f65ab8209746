/** Placeholder until this page is built. */
export function NewsEditPage() {
  return null;
}
