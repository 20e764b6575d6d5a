// Sessions in their own git worktrees: the `worktrees` service (plugins/worktrees implements it)
// and the two seams around creating and removing one (`worktree/create`, `worktree/remove`; the
// Claude Code bridge runs WorktreeCreate/WorktreeRemove hooks on them). Declared here so the host
// (CLI, UI, ACP) and other plugins code against it through the SDK.
import type { Next } from '../kernel/types'

/** A worktree a session is bound to, as recorded in the session's header. */
export interface WorktreeRecord {
  /** The name the user gave (or Seam chose): the branch is `seam/<name>`. */
  name: string
  /** The main worktree of the repository it was made from (the workspace the session started in). */
  repo: string
  /** Absolute path of the worktree: the session's workspace. */
  path: string
  /** The branch made for it (`seam/<name>`); empty when a WorktreeCreate hook made the folder. */
  branch: string
  /** The branch it started from (`HEAD`'s branch, or the chosen one): where a merge goes. */
  base: string
  /** The commit it started from. */
  baseCommit: string
  /** `git`: Seam ran `git worktree add`; `hook`: a WorktreeCreate hook supplied the path. */
  createdBy: 'git' | 'hook'
}

/** Where new worktrees go: a folder beside the repository, or under Seam's home. */
export type WorktreeLocation = 'beside' | 'home'

export interface WorktreeCreateOptions {
  /** The workspace (any folder inside the repository). */
  workspace: string
  /** The session the worktree is for (the hooks' `session_id`). */
  sessionId: string
  /** Default: a generated one. Letters, digits, `.`, `_`, `-`. */
  name?: string
  /** The branch to start from; default: `HEAD`. */
  base?: string
  /** Default: the plugin's configured location. */
  location?: WorktreeLocation
}

export interface WorktreeCreated {
  worktree: WorktreeRecord
  /** What the user should know (uncommitted changes in the main worktree are not included). */
  notices: string[]
}

/** Whether a workspace can have worktree sessions, and why not. */
export type WorktreeAvailability = { available: true; repo: string } | { available: false; reason: string }

export interface WorktreeFileChange {
  path: string
  /** `A` added, `M` modified, `D` deleted, `R` renamed (git's letters). */
  status: string
  additions: number
  deletions: number
  /** The unified diff of this file. */
  patch: string
}

/** The worktree against its base: committed and uncommitted changes together. */
export interface WorktreeDiff {
  files: WorktreeFileChange[]
  /** Changes not committed on the branch yet. */
  uncommitted: boolean
  /** Commits on the branch since the base commit. */
  commits: number
}

export type WorktreeMergeMode = 'fast-forward' | 'merge' | 'squash'

export type WorktreeMergeResult =
  | { merged: true; commit: string; mode: WorktreeMergeMode }
  | { merged: false; reason: string; conflicts: string[] }

export interface WorktreeService {
  availability(workspace: string): Promise<WorktreeAvailability>
  /** Makes the worktree (or lets a WorktreeCreate hook make it). On failure the repository is as it was. */
  create(options: WorktreeCreateOptions): Promise<WorktreeCreated>
  /** Whether the folder is still there (a worktree deleted outside Seam is `missing`). */
  exists(worktree: WorktreeRecord): boolean
  diff(worktree: WorktreeRecord): Promise<WorktreeDiff>
  /** A commit message for the uncommitted changes, for the user to edit. */
  suggestCommitMessage(worktree: WorktreeRecord): Promise<string>
  /** Commits every change in the worktree with `message`; the new commit. */
  commit(worktree: WorktreeRecord, message: string): Promise<string>
  /** Merges the branch into its base in the main worktree; conflicts are reported, never resolved. */
  merge(worktree: WorktreeRecord, mode: WorktreeMergeMode, message?: string): Promise<WorktreeMergeResult>
  /** Pushes the branch and opens a pull request with `gh`; the URL. */
  pullRequest(worktree: WorktreeRecord, title: string, body: string): Promise<string>
  /**
   * Removes the worktree and its branch. Refused while it has uncommitted changes or commits not
   * merged unless `confirmed` (the user saw what goes).
   */
  discard(worktree: WorktreeRecord, options: { sessionId: string; confirmed: boolean }): Promise<void>
  /** `git worktree prune` for worktrees Seam made whose folder is gone; the paths it forgot. */
  prune(repo: string): Promise<string[]>
}

/** What `worktree/create` listeners get: Claude Code's WorktreeCreate input. */
export interface WorktreeCreateRequest {
  sessionId: string
  name: string
  /** The folder the session starts from (the hooks' `cwd`). */
  cwd: string
}

/** `{}`: Seam makes the worktree with git; `{ path }`: a listener (a hook) made it there. */
export interface WorktreeCreateDecision {
  path?: string
}

export interface WorktreeRemoveRequest {
  sessionId: string
  worktreePath: string
  cwd: string
}

declare module '../kernel/types' {
  interface Services {
    worktrees: WorktreeService
  }
  interface Events {
    /** Before a worktree is made; a listener that made one itself returns its path. */
    'worktree/create': (request: WorktreeCreateRequest, next: Next<Promise<WorktreeCreateDecision>>) => Promise<WorktreeCreateDecision>
    /** After a worktree session's worktree was removed (Discard). Awaited. */
    'worktree/remove': (request: WorktreeRemoveRequest) => void | Promise<void>
  }
}
