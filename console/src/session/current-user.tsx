/**
 * Who is signed in (`GET /v1/me`): their role and permissions decide which controls a page
 * offers, so a viewer never sees an action the API would refuse.
 */
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from '../api/client';

export type Me = Schemas['Me'];

export const CurrentUser = createContext<{ me: Me; reload: () => Promise<void> } | undefined>(undefined);

export function useCurrentUser(): { me: Me; reload: () => Promise<void> } {
  const value = useContext(CurrentUser);
  if (!value) throw new Error('useCurrentUser outside a signed-in page');
  return value;
}

export function useCan(permission: string): boolean {
  return useCurrentUser().me.permissions.includes(permission);
}

export function CurrentUserProvider({ value, children }: { value: { me: Me; reload: () => Promise<void> }; children: ComponentChildren }) {
  return <CurrentUser.Provider value={value}>{children}</CurrentUser.Provider>;
}
