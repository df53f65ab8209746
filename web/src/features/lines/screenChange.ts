/**
 * The screens rule of the server (lines service `screens`): the new total must stay between 1 and
 * the `user_limit_screen` setting (at least 1); adding costs amount x months remaining, removing
 * refunds nothing. The modal previews only what this allows.
 */
export interface ScreenChange {
  /** amounts the rule allows: [min, max], 0 excluded */
  min: number;
  max: number;
  /** no amount can change this line (e.g. 1 screen with a limit of 1) */
  stuck: boolean;
  /** the amount asked for is allowed */
  valid: boolean;
  next: number;
  cost: number;
}

export function screenChange(current: number, amount: number, limit: number, months: number): ScreenChange {
  const max = Math.max(1, limit);
  const min = 1 - current;
  const upper = max - current;
  const stuck = min > upper || (min === 0 && upper < 1);
  const next = current + amount;
  const valid = Number.isInteger(amount) && amount !== 0 && next >= 1 && next <= max;
  return { min, max: upper, stuck, valid, next, cost: valid && amount > 0 ? amount * months : 0 };
}
