/** Placeholder until this page is built. */
export function ResellerEditPage() {
  return null;
}
