/** Placeholder until this page is built. */
export function LogsPage() {
  return null;
}
