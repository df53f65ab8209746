import { SignedInLayout } from '../components/layout/SignedInLayout';
import { ApiKeysMenuItem } from '../features/apikeys/ApiKeysMenuItem';
import { SignOutMenuItem } from '../features/auth/SignOutMenuItem';
import { SecurityMenuItem } from '../features/twofactor/SecurityMenuItem';
import { TwoFactorGate } from '../features/twofactor/TwoFactorGate';

/** The signed-in layout with the features' pieces it shows but does not know: the user menu's entries and the 2FA gate. */
export function SignedInApp() {
  return (
    <>
      <TwoFactorGate />
      <SignedInLayout
        accountItems={
          <>
            <SecurityMenuItem />
            <ApiKeysMenuItem />
            <SignOutMenuItem />
          </>
        }
      />
    </>
  );
}
