/** Placeholder until this page is built. */
export function TrialCreatePage() {
  return null;
}
