/** Placeholder until this page is built. */
export function UserCreatePage() {
  return null;
}
