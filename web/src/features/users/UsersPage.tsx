/** Placeholder until this page is built. */
export function UsersPage() {
  return null;
}
