// What the farmer pages need from the shell beyond the version-1 contract, read defensively: a way to get
// the current access token, which byte-progress uploads (XMLHttpRequest) have to attach themselves.
// A shell without it still works: uploads then go through its API client, without progress events.
import { useShell, type ShellContract } from '@tuber/shell-contract';

export type AccessTokenGetter = () => string | null | Promise<string | null>;

export interface AccessTokenSource {
  getAccessToken?: AccessTokenGetter;
}

/** The gateway prefix the shell's API client uses (see ShellRoot / StandaloneShell). */
export const API_BASE_URL = '/api';

export function useAccessTokenGetter(): AccessTokenGetter | undefined {
  const shell = useShell() as ShellContract & AccessTokenSource & { auth?: AccessTokenSource };
  return shell.getAccessToken ?? shell.auth?.getAccessToken;
}
