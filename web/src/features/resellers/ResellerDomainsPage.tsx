/** Placeholder until this page is built. */
export function ResellerDomainsPage() {
  return null;
}
