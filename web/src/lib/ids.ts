/** A record id the server can hold (a positive 32-bit integer): any other id in a URL is "not found" without asking. */
export function isValidId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
}
