/** The two-factor feature's query keys. */
export const twoFactorKeys = {
  /** TwoFactorStatus: GET /profile/2fa. */
  status: () => ['twoFactor'] as const,
};
