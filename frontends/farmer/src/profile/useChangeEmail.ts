// "Change e-mail": the shell hands over to Keycloak's verified e-mail update (application-initiated
// action UPDATE_EMAIL) and brings the farmer back to this page. Undefined when the shell offers no
// such hand-over (the remote running alone, or an older shell).
import { useAuth } from '@tuber/shell-contract';
import { FARMER_PROFILE_PATH } from '../shared/paths.js';

export function useChangeEmail(): (() => void) | undefined {
  const auth = useAuth();
  const changeEmail = auth?.changeEmail;
  return changeEmail ? () => changeEmail({ redirectTo: FARMER_PROFILE_PATH }) : undefined;
}
