// The LSP wire library, loaded with the first language server's start instead of with Seam's:
// importing it costs about a quarter of `seam`'s own start-up CPU, and most sessions start none.
export type Protocol = typeof import('vscode-languageserver-protocol/node.js')

let loading: Promise<Protocol> | undefined

export function loadProtocol(): Promise<Protocol> {
  return (loading ??= import('vscode-languageserver-protocol/node.js'))
}
