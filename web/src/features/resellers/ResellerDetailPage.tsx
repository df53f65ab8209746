/** Placeholder until this page is built. */
export function ResellerDetailPage() {
  return null;
}
