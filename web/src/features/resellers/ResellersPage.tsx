/** Placeholder until this page is built. */
export function ResellersPage() {
  return null;
}
