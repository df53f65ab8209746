/** Placeholder until this page is built. */
export function ResellerCreatePage() {
  return null;
}
