/** Placeholder until this page is built. */
export function UserEditPage() {
  return null;
}
