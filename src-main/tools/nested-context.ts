// S9/S17 for composite tools: a tool that calls `tools.execute()` with its own token as `parent`
// gets the nested call's result, but the nested call's `additionalContext` is meant for the model,
// not for the tool body. It is carried to the outer call instead: collected while the outer call
// runs, in the order nested calls finish, and put before the outer call's own context.
// It also answers S11's "is an agent invocation behind this call": a call of an agent turn, or a
// call nested (at any depth) in a running call that is.

export class NestedContext {
  /** Per running call token: context its nested calls produced so far. */
  private readonly carried = new Map<string, string[]>()
  /** Tokens of running calls that an agent turn stands behind. */
  private readonly agentBacked = new Set<string>()

  /** Whether an agent turn stands behind this call (directly, or through its running parent). */
  backedByAgent(call: { turnId?: string; parent?: string }): boolean {
    return call.turnId !== undefined || (call.parent !== undefined && this.agentBacked.has(call.parent))
  }

  /** The call with `token` is about to run: nested calls may carry context to it. */
  open(call: { token: string; turnId?: string; parent?: string }): void {
    if (call.token === '') return
    this.carried.set(call.token, [])
    if (this.backedByAgent(call)) this.agentBacked.add(call.token)
  }

  /** A nested call concluded: its context goes to its parent while the parent still runs. */
  carry(parent: string | undefined, context: readonly string[]): void {
    if (parent === undefined || context.length === 0) return
    this.carried.get(parent)?.push(...context)
  }

  /** The outer call concluded: what its nested calls carried (and stop collecting). */
  close(token: string): string[] {
    const carried = this.carried.get(token) ?? []
    this.carried.delete(token)
    this.agentBacked.delete(token)
    return carried
  }
}
