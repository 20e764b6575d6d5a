// The HostApi the components talk to, whichever transport carries it.
import { createContext, useContext, type ReactNode } from 'react'
import type { HostApi } from '../../src-shared/contract/ipc'

const HostContext = createContext<HostApi | null>(null)

export function HostProvider({ host, children }: { host: HostApi; children: ReactNode }) {
  return <HostContext.Provider value={host}>{children}</HostContext.Provider>
}

export function useHost(): HostApi {
  const host = useContext(HostContext)
  if (!host) throw new Error('useHost: no HostProvider above this component')
  return host
}
