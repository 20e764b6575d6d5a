// Trust pinned to what the trust dialog showed. Trusting a workspace approves the exact items the
// dialog listed (each hook command, and later each project MCP server or custom command with
// shell lines), by a hash of its content. An item added or changed afterwards (a `git pull`
// editing .claude/settings.json) does not run until the user approves it in a dialog that shows
// the old and the new text. Removed items need nothing. Pins live in <Seam home>/trust-pins.json.
//
// Any plugin can register items: `workspace.contributeTrustItems(ctx, (root) => items)` lists
// them for the dialog, and `workspace.isApproved(item)` says whether one may run now.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { writeFileAtomic } from '../app/atomic-file'

export type { TrustItem } from '../../src-shared/host/workspace'
import type { TrustItem } from '../../src-shared/host/workspace'

export type TrustItemStatus = 'approved' | 'new' | 'changed'

export interface ReviewedTrustItem extends TrustItem {
  hash: string
  status: TrustItemStatus
  /** For a changed item: the text that was approved before. */
  previous?: string
}

const PinSchema = z.strictObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest'),
  source: z.string(),
  file: z.string(),
  event: z.string(),
  matcher: z.string().optional(),
  command: z.string()
})
type Pin = z.infer<typeof PinSchema>

const PinFileSchema = z.strictObject({
  version: z.literal(1),
  /** Approved items per workspace folder. */
  workspaces: z.record(z.string(), z.array(PinSchema))
})

/** The file is named relative to the workspace, so moving the folder keeps approvals. */
export function trustItemHash(item: TrustItem, workspace: string): string {
  const file = path.relative(workspace, item.file) || item.file
  return createHash('sha256').update(JSON.stringify([item.source, file, item.event, item.matcher ?? null, item.command, item.content ?? null])).digest('hex')
}

function location(item: TrustItem): string {
  return JSON.stringify([item.source, item.file, item.event, item.matcher ?? null])
}

export class TrustPins {
  /** Approvals for this process only (`--trust-workspace`), never written. */
  private readonly session = new Map<string, Set<string>>()
  /** Set when the file exists but cannot be used: nothing from it is trusted, and it is not overwritten. */
  readonly loadError?: string
  private pins: Record<string, Pin[]>

  constructor(private readonly file: string) {
    const { pins, error } = readPins(file)
    this.pins = pins
    this.loadError = error
  }

  /** Whether any approval was ever recorded for `workspace` (a workspace trusted before pinning has none). */
  has(workspace: string): boolean {
    return this.pins[workspace] !== undefined || this.session.has(workspace)
  }

  approvedHashes(workspace: string): ReadonlySet<string> {
    return new Set([...(this.pins[workspace] ?? []).map((pin) => pin.hash), ...(this.session.get(workspace) ?? [])])
  }

  /**
   * Each item with its hash and whether it is approved, new, or a changed version of an approved one.
   * `inheritsFrom`: the main worktree a worktree's trust comes from; its approvals count here too
   * (items are hashed by their path inside the workspace, so an item the branch left alone is the
   * same item), and an item the branch changed shows the text approved there as before.
   */
  review(workspace: string, items: readonly TrustItem[], inheritsFrom?: string): ReviewedTrustItem[] {
    const approved = inheritsFrom === undefined ? this.approvedHashes(workspace) : new Set([...this.approvedHashes(workspace), ...this.approvedHashes(inheritsFrom)])
    const hashed = items.map((item) => ({ ...item, hash: trustItemHash(item, workspace) }))
    const present = new Set(hashed.map((item) => item.hash))
    // Approved text no longer present, by where it was declared: what a changed item replaced.
    const gone = new Map<string, string>()
    const pins = [...(inheritsFrom === undefined ? [] : (this.pins[inheritsFrom] ?? [])), ...(this.pins[workspace] ?? [])]
    for (const pin of pins) {
      if (!present.has(pin.hash)) gone.set(location({ ...pin, file: path.resolve(workspace, pin.file) }), pin.command)
    }
    // `content` is hashed only: it never leaves here (it may hold what the dialog must not show).
    return hashed.map(({ content: _content, ...item }) => {
      if (approved.has(item.hash)) return { ...item, status: 'approved' as const }
      const previous = gone.get(location(item))
      return previous === undefined ? { ...item, status: 'new' as const } : { ...item, status: 'changed' as const, previous }
    })
  }

  /**
   * Records the approved items of `workspace`: those already approved and still present, plus
   * `approve` (hashes the dialog showed). Pins of removed items are dropped.
   */
  approve(workspace: string, items: readonly TrustItem[], approve: ReadonlySet<string>): void {
    if (this.loadError) throw Object.assign(new Error(`${this.loadError}; Seam will not overwrite it: fix or delete it`), { code: 'TRUST_PINS_UNREADABLE' })
    const reviewed = this.review(workspace, items)
    const kept = reviewed.filter((item) => item.status === 'approved' || approve.has(item.hash))
    const next = { ...this.pins, [workspace]: kept.map((item) => toPin(item, workspace)) }
    writeFileAtomic(this.file, JSON.stringify({ version: 1, workspaces: next }, null, 2) + '\n', 0o600)
    this.pins = next
  }

  /** Approves for this process only (`--trust-workspace`: what is there at start). */
  approveForSession(workspace: string, items: readonly TrustItem[]): void {
    const set = this.session.get(workspace) ?? new Set<string>()
    for (const item of items) set.add(trustItemHash(item, workspace))
    this.session.set(workspace, set)
  }

  /** Forgets every approval of `workspace` (untrusting it). */
  forget(workspace: string): void {
    this.session.delete(workspace)
    if (this.pins[workspace] === undefined || this.loadError) return
    const next = { ...this.pins }
    delete next[workspace]
    writeFileAtomic(this.file, JSON.stringify({ version: 1, workspaces: next }, null, 2) + '\n', 0o600)
    this.pins = next
  }
}

function toPin(item: ReviewedTrustItem, workspace: string): Pin {
  const pin: Pin = { hash: item.hash, source: item.source, file: path.relative(workspace, item.file) || item.file, event: item.event, command: item.command }
  if (item.matcher !== undefined) pin.matcher = item.matcher
  return pin
}

function readPins(file: string): { pins: Record<string, Pin[]>; error?: string } {
  if (!existsSync(file)) return { pins: {} }
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return { pins: {}, error: `${file}: not readable JSON (${(error as Error).message})` }
  }
  const parsed = PinFileSchema.safeParse(raw)
  if (!parsed.success) return { pins: {}, error: formatZodError(file, parsed.error) }
  return { pins: parsed.data.workspaces }
}
